// Zoom and pan for a board whose squares would be drawn small (Alea Evangelii's 19x19 on a phone):
// buttons under the board zoom it in steps, and the zoomed drawing scrolls inside the board's
// box, panned by a drag that lifts no piece (mouse or finger), by the wheel or the scroll bars.
// A board of squares says how big a square is in its drawing's units (`data-cell` on its <svg>);
// one that does not, or whose squares are drawn big enough, is offered no zoom.
import { el } from "../dom.js";
import { language, t } from "../i18n.js";
import { DRAG_SLOP } from "./interact.js";

// A square can be read and aimed at from READABLE px; FINGER px is a fingertip's size.
export const READABLE = 28;
export const FINGER = 44;

// Rounded up to hundredths, so that a level reaches the size it was chosen for.
const up = (x) => Math.ceil(x * 100) / 100;

// The zoom levels for squares drawn `square` px wide when the board fits its box: fitted (1),
// then READABLE and FINGER px a square; fitted only, when that is READABLE already.
export function zoomLevels(square) {
  if (!(square > 0) || square >= READABLE) return [1];
  return [1, up(READABLE / square), up(FINGER / square)];
}

// The scroll offset, along one axis, that keeps the point in the middle of a view `view` px long
// in the middle when the drawing under it grows (or shrinks) from `before` to `after` px, within
// the drawing.
export function keepMiddle(offset, view, before, after) {
  const middle = ((offset + view / 2) * after) / before;
  return Math.min(Math.max(0, middle - view / 2), Math.max(0, after - view));
}

// The zoom of the board drawn in `box` (a page's board box, which boards/index.js's `mountBoard`
// fills): its buttons, `node`, for the page to place under the board. A new drawing, or the box
// resized, starts fitted again.
export function boardZoom(box) {
  const button = (testid, text, label, step) => {
    const b = el("button", { type: "button", class: "small secondary", "data-testid": testid, title: label, "aria-label": label }, text);
    b.onclick = () => {
      measure();
      go(at + step);
    };
    return b;
  };
  const out = button("zoom-out", "\u2212", t("board.zoom-out"), -1);
  const into = button("zoom-in", "+", t("board.zoom-in"), 1);
  const level = el("span", { class: "zoom-level", "data-testid": "zoom-level" });
  const node = el("div", { class: "row zoom", hidden: true }, out, level, into);
  let levels = [1];
  let at = 0;
  // The fitted drawing's size (px), and the drawing's holder while it is zoomed.
  let fit = null;
  let zoomed = null;
  let width = null;

  const drawing = () => box.querySelector(".board > svg[data-cell]");
  const draw = () => {
    node.hidden = levels.length < 2;
    out.disabled = at === 0;
    into.disabled = at === levels.length - 1;
    level.textContent = new Intl.NumberFormat(language, { style: "percent" }).format(levels[at]);
  };

  const go = (next) => {
    const svg = drawing();
    if (!svg || next < 0 || next >= levels.length) return;
    const holder = svg.parentElement;
    const [before, after] = [levels[at], levels[next]];
    const [left, top] = [holder.scrollLeft, holder.scrollTop];
    at = next;
    zoomed = at ? holder : null;
    holder.classList.toggle("zoomed", at > 0);
    holder.style.height = at ? `${fit.height}px` : "";
    svg.style.width = at ? `${fit.width * after}px` : "";
    svg.style.height = at ? `${fit.height * after}px` : "";
    holder.scrollLeft = keepMiddle(left, holder.clientWidth, fit.width * before, fit.width * after);
    holder.scrollTop = keepMiddle(top, holder.clientHeight, fit.height * before, fit.height * after);
    draw();
  };

  // The squares' size as the board fits its box, read again whenever it is drawn anew or resized
  // (and before a zoom, in case another view of the board replaced the zoomed drawing: the new
  // one starts fitted).
  const measure = () => {
    const resized = box.clientWidth !== width;
    width = box.clientWidth;
    if (zoomed && resized) go(0);
    if (zoomed && drawing()?.parentElement !== zoomed) {
      at = 0;
      zoomed = null;
    }
    if (at) return;
    const svg = drawing();
    const rect = svg?.getBoundingClientRect();
    const across = svg?.viewBox.baseVal?.width;
    levels = rect?.width && across ? zoomLevels((rect.width * Number(svg.dataset.cell)) / across) : [1];
    fit = rect ? { width: rect.width, height: rect.height } : null;
    draw();
  };
  new ResizeObserver(measure).observe(box);

  // Panning: a drag on the zoomed board that no piece takes (interact.js's drag of a piece
  // prevents the moves' default), and the click that ends it swallowed.
  let pan = null;
  let swallow = false;
  box.addEventListener("pointerdown", (e) => {
    swallow = false;
    if (!zoomed || e.button !== 0 || !zoomed.contains(e.target)) return;
    pan = { id: e.pointerId, x: e.clientX, y: e.clientY, left: zoomed.scrollLeft, top: zoomed.scrollTop, moving: false };
  });
  box.addEventListener("pointermove", (e) => {
    if (!pan || e.pointerId !== pan.id || !zoomed) return;
    if (e.defaultPrevented) {
      pan = null;
      return;
    }
    const [dx, dy] = [e.clientX - pan.x, e.clientY - pan.y];
    if (!pan.moving && Math.hypot(dx, dy) < DRAG_SLOP) return;
    pan.moving = true;
    zoomed.scrollLeft = pan.left - dx;
    zoomed.scrollTop = pan.top - dy;
  });
  const end = (e) => {
    if (pan?.id !== e.pointerId) return;
    swallow = pan.moving;
    pan = null;
  };
  box.addEventListener("pointerup", end);
  box.addEventListener("pointercancel", end);
  box.addEventListener("click", (e) => {
    if (!swallow) return;
    swallow = false;
    e.stopPropagation();
  }, true);

  draw();
  return { node };
}
