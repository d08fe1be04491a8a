// Predict, then reveal: the reader commits to an answer before the lab shows the zero query.

const FEEDBACK = {
  zero: "You predicted zero. The lab below now has the zero query: look at the output, then read why.",
  other: "You predicted something other than zero. The lab below now has the zero query: see what it is, and why.",
};

export function mount(root) {
  const reveal = document.getElementById("zero-reveal");
  const choices = root.querySelector(".predict-choices");
  const feedback = root.querySelector(".predict-feedback");
  reveal.hidden = true; // without JavaScript the explanation simply stays visible
  choices.hidden = false;
  choices.addEventListener("click", (event) => {
    const guess = event.target.closest("button[data-guess]");
    if (!guess) return;
    for (const button of choices.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button === guess));
    }
    feedback.textContent = FEEDBACK[guess.dataset.guess];
    reveal.hidden = false;
    document.dispatchEvent(new CustomEvent("lab:query", { detail: ["0", "0"] }));
  });
}
