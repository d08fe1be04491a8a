//# allFunctionsCalledOnLoad
// What if a step were missing, drawn on the bench's drawing: ghost needles, the stopcocks the
// counterfactual opens, a second core sample and a note in words. Python computes every
// position, angle and text (attention/bench_view.py, drawing.whatif); these functions only
// place them in clones of the parts the build wrote (templates/figures/bench-parts.html),
// writing what each macro of the same name writes.

import { bound, part, setAttr, setClass, setText, syncList } from "../dom.js";

export function fillGhost(g, x) {
  setAttr(g, "class", `ghost${x.off ? " off" : ""}`);
  setAttr(g, "data-index", x.index);
  setAttr(g, "transform", `translate(${x.x} ${x.y})`);
  const arm = g.firstElementChild;
  setAttr(arm, "transform", `rotate(${x.angle})`);
  const [needle, tip] = arm.children;
  setAttr(needle, "y2", x.end);
  setAttr(tip, "cy", x.end);
}

export function fillGhostHandle(line, v) {
  setAttr(line, "data-index", v.index);
  setAttr(line, "transform", `translate(${v.x} ${v.y})`);
  ["x1", "y1", "x2", "y2"].forEach((name, k) => setAttr(line, name, v.handle[k]));
}

export function fillGhostTray(rect, t) {
  for (const name of ["x", "y", "width", "height"]) setAttr(rect, name, t[name]);
}

/** A stratum of the counterfactual core sample (`sample`: its x and width). */
export function fillGhostStratum(g, s, sample) {
  setAttr(g, "class", `ghost-stratum c${s.colour} p${s.pattern}`);
  setAttr(g, "data-index", s.index);
  for (const rect of g.children) {
    setAttr(rect, "x", sample.x);
    setAttr(rect, "width", sample.width);
    setAttr(rect, "y", s.y);
    setAttr(rect, "height", s.height);
  }
  setAttr(g.children[1], "fill", s.pattern ? `url(#bench-p${s.pattern})` : "none");
}

/** A counterfactual stratum's label, once for wide screens and once for a phone's text. */
export function fillGhostLabel(g, s, sample) {
  setAttr(g, "class", `ghost-label${s.label ? "" : " off"}`);
  setAttr(g, "data-index", s.index);
  const [text, phoneText] = g.children;
  for (const [t, y] of [[text, s.label_y], [phoneText, s.phone_y]]) {
    setAttr(t, "x", sample.label_x);
    setAttr(t, "y", y);
    const [word, number] = t.children;
    setText(word, s.word);
    setText(number, s.number);
  }
}

export function fillNote(text, line) {
  setAttr(text, "class", `whatif-note${line.failure ? " failure" : ""}`);
  setAttr(text, "x", line.x);
  setAttr(text, "y", line.y);
  setText(text, line.text);
}

/** Draw the drawing's what-if layer for one answer's drawing (empty when no step is removed). */
export function renderWhatifDrawing(root, drawing) {
  const layer = root.querySelector('.bench-drawing [data-bind="whatif"]');
  if (!layer) return;
  const w = drawing.whatif;
  const sample = w ? w.sample : null;
  syncList(bound(layer, "ghosts"), w ? w.ghosts : [], () => part(root, "ghost"), fillGhost);
  syncList(bound(layer, "ghost-handles"), w ? w.valves : [], () => part(root, "ghost-handle"), fillGhostHandle);
  syncList(bound(layer, "ghost-tray"), w ? [sample.tray] : [], () => part(root, "ghost-tray"), fillGhostTray);
  syncList(bound(layer, "ghost-strata"), w ? sample.strata : [], () => part(root, "ghost-stratum"),
    (g, s) => fillGhostStratum(g, s, sample));
  syncList(bound(layer, "ghost-labels"), w ? sample.strata : [], () => part(root, "ghost-label"),
    (text, s) => fillGhostLabel(text, s, sample));
  syncList(bound(layer, "whatif-notes"), w ? w.note : [], () => part(root, "whatif-note"), fillNote);
  const opened = new Set(w ? w.valves.map((v) => v.index) : []);
  for (const valve of root.querySelectorAll(".bench-drawing .valve")) {
    setClass(valve, "whatif-open", opened.has(Number(valve.dataset.index)));
  }
}
