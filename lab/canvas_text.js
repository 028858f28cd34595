// Text on a canvas at 14 px on the screen whatever the canvas is scaled to, 18 px with "large
// text": the size every label of the SVG figures has (lab.css).
export function canvasFont(canvas) {
  const onScreen = canvas.width / Math.max(1, canvas.clientWidth || canvas.width);
  const px = document.documentElement.classList.contains("projector") ? 18 : 14;
  return `${Math.round(px * onScreen)}px system-ui, sans-serif`;
}
