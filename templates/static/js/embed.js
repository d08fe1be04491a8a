// An embedded figure tells its parent page how tall it is, whenever that changes.

const id = document.body.dataset.embedId;
if (window.parent !== window) {
  let last = 0;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "attention-bench:height", embed: id, height }, "*");
  };
  new ResizeObserver(report).observe(document.documentElement);
  report();
}
