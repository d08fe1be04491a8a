// The lab: the reader moves the query, blocks keys and sets T; Python recomputes everything.

const STAGES = ["score", "scaled", "tempered", "shifted", "exp", "weight"];
const MOVES = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };

const $ = (root, selector) => root.querySelector(selector);

/** Draw a successful answer from attention.lab.view into the figure. */
export function render(root, data, focused) {
  for (const row of data.rows) {
    const tr = $(root, `tr[data-key="${row.index}"]`);
    for (const stage of STAGES) $(tr, `[data-bind="${stage}"]`).textContent = row[stage].text;
    $(tr, '[data-bind="bar"]').setAttribute("width", row.weight.value);
    $(tr, '[data-bind="blocked"]').hidden = row.allowed;
    tr.classList.toggle("blocked", !row.allowed);
    $(root, `input[name="mask"][value="${row.index}"]`).checked = row.allowed;
  }
  for (const point of data.plot.value_points.entries()) {
    $(root, `.value-point[data-key="${point[0]}"]`).classList.toggle("blocked", !point[1].allowed);
  }
  $(root, '[data-bind="hull"]').setAttribute("points", data.plot.hull);
  const out = data.plot.output;
  $(root, '[data-bind="output-point"]').setAttribute("transform", `translate(${out.x} ${out.y})`);
  $(root, '[data-bind="plot-desc"]').textContent = data.plot.summary;
  $(root, '[data-bind="output"]').textContent = data.output.text;
  const pad = data.pad;
  $(root, '[data-bind="pad-point"]').setAttribute("cx", pad.x);
  $(root, '[data-bind="pad-point"]').setAttribute("cy", pad.y);
  $(root, '[data-bind="pad-arm"]').setAttribute("x2", pad.x);
  $(root, '[data-bind="pad-arm"]').setAttribute("y2", pad.y);
  $(root, '[data-bind="query"]').textContent = data.query.text;
  $(root, '[data-bind="off-pad"]').hidden = !pad.off_pad;
  const fields = { q1: data.fields[0], q2: data.fields[1], temperature: data.temperature.text };
  for (const [name, text] of Object.entries(fields)) {
    const input = $(root, `input[name="${name}"]`);
    if (input !== focused) input.value = text;
  }
  const slider = $(root, 'input[type="range"]');
  if (slider !== focused) slider.value = data.slider;
  slider.setAttribute("aria-valuetext", `T = ${data.temperature.text}`);
}

/** Show each problem next to its field; the last good numbers stay on screen. */
export function renderErrors(root, problems) {
  const where = { q1: "#lab-q1-msg", q2: "#lab-q2-msg", temperature: "#lab-t-msg", mask: "#lab-mask-msg" };
  for (const selector of Object.values(where)) $(root, selector).textContent = "";
  for (const input of root.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  for (const { field, message } of problems) {
    const target = $(root, where[field] || ".state-notice"); // no field: the figure's notice
    target.textContent = message;
    const input = $(root, `input[name="${field}"]`);
    if (input) input.setAttribute("aria-invalid", "true");
  }
}

export function mount(root, store) {
  const controls = $(root, ".lab-controls");
  controls.hidden = false;
  const svg = $(root, ".pad");
  const plane = $(svg, "g");

  const ask = (extra = {}) => store.ask(() => ({ // read the fields when the request is sent
    figure: "lab",
    query: [$(root, 'input[name="q1"]').value, $(root, 'input[name="q2"]').value],
    mask: [...root.querySelectorAll('input[name="mask"]')].map((box) => box.checked),
    temperature: $(root, 'input[name="temperature"]').value,
    ...extra,
  }));

  controls.addEventListener("input", (event) => {
    if (event.target.type === "range") ask({ slider: event.target.value });
    else ask();
  });

  // The pad: the browser maps the pointer into the plane's own coordinates; Python does the rest.
  const fromPointer = (event) => {
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(
      plane.getScreenCTM().inverse());
    ask({ pad: [point.x, point.y] });
  };
  svg.addEventListener("pointerdown", (event) => {
    svg.setPointerCapture(event.pointerId);
    svg.focus();
    fromPointer(event);
  });
  svg.addEventListener("pointermove", (event) => {
    if (svg.hasPointerCapture(event.pointerId)) fromPointer(event);
  });
  svg.addEventListener("keydown", (event) => {
    if (!MOVES[event.key]) return;
    event.preventDefault();
    ask({ move: MOVES[event.key] });
  });

  // The prediction on this page asks the lab to show a given query.
  document.addEventListener("lab:query", ({ detail }) => {
    $(root, 'input[name="q1"]').value = detail[0];
    $(root, 'input[name="q2"]').value = detail[1];
    ask();
  });

  let drawn = null;
  store.subscribe((state) => {
    if (!state.answer || state.answer === drawn) return;
    drawn = state.answer;
    if (state.answer.ok) {
      renderErrors(root, []);
      render(root, state.answer.data, document.activeElement);
    } else {
      renderErrors(root, state.answer.errors);
    }
  });
}
