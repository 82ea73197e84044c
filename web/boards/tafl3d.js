// A 3D tafl board drawn with three.js, following the same contract as the 2D board: click one of
// your pieces and its legal destinations light up, click one of them to move (the action text is
// taken from `state.legal`). Drag to turn the camera round the board, wheel or pinch to zoom.
// Clicks are resolved by raycasting from the camera through the pointer. The scene is drawn on
// demand (after an update, a drag or a resize), not in a loop, so an idle board costs nothing.
//
// Files and ranks are labelled round the board; the last move is marked on its squares, its
// captures with red crosses, and the moved piece slides there (unless the user asks for reduced
// motion). The king is tall and gold-crowned on a gold ring, so that it is found at a glance.
//
// For browser tests the container element carries `project(square)`, the square's centre in
// client coordinates, since squares in a canvas have no elements to click, and data attributes
// naming what is drawn (`movable`, `targets`, `last`, `captured`, `king`, `labels`, `slides`).
import * as THREE from "../vendor/three/three.module.min.js";
import { html, caption, sent } from "./svg.js";
import { describeResult } from "../results.js";
import { seatName } from "../catalog.js";
import { t } from "../i18n.js";
import { parseMove } from "./tafl.js";

const FILES = "abcdefghijklmnopqrs";
const MOVE = /^([a-s]\d+)-([a-s]\d+)/;

/// Pieces by square from an OpenTafl position: ranks from rank 1 upward, `/` between them,
/// digits counting empty squares, `t` attacker, `T` defender, `K` king.
export function parsePosition(position) {
  const ranks = position.split("/").slice(1, -1);
  const pieces = new Map();
  ranks.forEach((text, r) => {
    let file = 0;
    for (const token of text.match(/\d+|[tTK]/g) || []) {
      if (/\d/.test(token)) {
        file += Number(token);
      } else {
        pieces.set(FILES[file] + (r + 1), token);
        file += 1;
      }
    }
  });
  return { size: ranks.length, pieces };
}

export default {
  create(el, { perspective, flip = false, onAction }) {
    const info = caption("");
    let renderer;
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true });
    } catch (error) {
      el.append(html("p", { "data-testid": "no-webgl" }, t("board.no-webgl", { error: error.message })));
      return { update() {}, destroy() { el.replaceChildren(); } };
    }
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    const canvas = renderer.domElement;
    canvas.setAttribute("data-testid", "board3d");
    canvas.style.cssText = "display: block; width: 100%; touch-action: none; cursor: grab";
    el.append(canvas, info);

    const scene = new THREE.Scene();
    scene.background = new THREE.Color("#dfe7ee");
    scene.add(new THREE.HemisphereLight("#ffffff", "#8a7a60", 1.6));
    const sun = new THREE.DirectionalLight("#ffffff", 1.8);
    sun.position.set(4, 10, 6);
    scene.add(sun);
    const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 200);
    const world = new THREE.Group(); // everything that changes with the position
    scene.add(world);

    // The camera orbits the board's centre: `azimuth` round the vertical, `elevation` above it.
    // It starts behind the user's side (the defenders' from the far edge), turned round by `flip`.
    const behind = (flipped) => ((perspective === 1) !== flipped ? Math.PI : 0);
    const orbit = { azimuth: behind(flip), elevation: 0.9, distance: 14 };
    let state = null;
    let size = 0;
    let selected = null;
    let shown; // the last move already drawn (undefined before the first update)
    let sliding = null; // the animation frame of a piece's slide, while one runs
    let slides = 0;
    const squares = new Map(); // name -> tile mesh, the raycasting targets
    const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

    // Moves a piece from `from` to `to` with a small hop, drawing each frame until it lands.
    function slide(mesh, from, to) {
      if (sliding) cancelAnimationFrame(sliding);
      el.dataset.slides = String(++slides);
      if (still) return;
      const start = performance.now();
      const duration = 260;
      const frame = (now) => {
        const t = Math.min(1, (now - start) / duration);
        const eased = t * (2 - t);
        mesh.position.lerpVectors(from, to, eased);
        mesh.position.y = Math.sin(Math.PI * t) * 0.35;
        render();
        sliding = t < 1 ? requestAnimationFrame(frame) : null;
      };
      mesh.position.copy(from);
      sliding = requestAnimationFrame(frame);
    }

    const toWorld = (name) => {
      const file = FILES.indexOf(name[0]);
      const rank = Number(name.slice(1)) - 1;
      return new THREE.Vector3(file - (size - 1) / 2, 0, (size - 1) / 2 - rank);
    };

    function placeCamera() {
      const { azimuth, elevation, distance } = orbit;
      camera.position.set(
        distance * Math.cos(elevation) * Math.sin(azimuth),
        distance * Math.sin(elevation),
        distance * Math.cos(elevation) * Math.cos(azimuth),
      );
      camera.lookAt(0, 0, 0);
    }

    function resize() {
      const width = el.clientWidth || 360;
      const height = Math.min(width, Math.round(window.innerHeight * 0.7)) || width;
      renderer.setSize(width, height, false);
      canvas.style.height = `${height}px`;
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      render();
    }

    function render() {
      placeCamera();
      renderer.render(scene, camera);
    }

    function piece(kind) {
      const colour = kind === "t" ? "#3a2b23" : "#f2ead8";
      const material = new THREE.MeshStandardMaterial({ color: colour, roughness: 0.6 });
      const group = new THREE.Group();
      const king = kind === "K";
      const body = new THREE.Mesh(new THREE.CylinderGeometry(0.28, 0.36, king ? 0.9 : 0.4, 24), material);
      body.position.y = king ? 0.5 : 0.25;
      group.add(body);
      if (king) {
        const gold = () => new THREE.MeshStandardMaterial({ color: "#e0a800", emissive: "#6b4a00", metalness: 0.4, roughness: 0.35 });
        const band = new THREE.Mesh(new THREE.TorusGeometry(0.3, 0.05, 10, 28), gold());
        band.rotation.x = Math.PI / 2;
        band.position.y = 0.75;
        const crown = new THREE.Mesh(new THREE.ConeGeometry(0.22, 0.35, 5), gold());
        crown.position.y = 1.12;
        const ring = new THREE.Mesh(new THREE.TorusGeometry(0.44, 0.05, 8, 32), gold());
        ring.rotation.x = Math.PI / 2;
        ring.position.y = 0.08;
        group.add(band, crown, ring);
      }
      return group;
    }

    // A file or rank label: a sprite, so it always faces the camera.
    function label(text, at) {
      const canvas2d = document.createElement("canvas");
      canvas2d.width = canvas2d.height = 64;
      const pen = canvas2d.getContext("2d");
      pen.fillStyle = "#3b2a1a";
      pen.font = "bold 40px sans-serif";
      pen.textAlign = "center";
      pen.textBaseline = "middle";
      pen.fillText(text, 32, 34);
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas2d) }));
      sprite.scale.set(0.42, 0.42, 1);
      sprite.position.copy(at);
      return sprite;
    }

    function labels() {
      const edge = size / 2 + 0.55;
      const group = new THREE.Group();
      for (let i = 0; i < size; i++) {
        const offset = i - (size - 1) / 2;
        for (const side of [-1, 1]) {
          group.add(label(FILES[i], new THREE.Vector3(offset, 0.05, side * edge)));
          group.add(label(String(i + 1), new THREE.Vector3(side * edge, 0.05, -offset)));
        }
      }
      return group;
    }

    // A red cross on a square whose piece the last move took.
    function cross(name) {
      const group = new THREE.Group();
      const red = new THREE.MeshStandardMaterial({ color: "#c0392b", emissive: "#5a0d05" });
      for (const angle of [Math.PI / 4, -Math.PI / 4]) {
        const bar = new THREE.Mesh(new THREE.BoxGeometry(0.75, 0.04, 0.1), red.clone());
        bar.rotation.y = angle;
        group.add(bar);
      }
      red.dispose();
      group.position.copy(toWorld(name)).setY(0.08);
      return group;
    }

    function legalMoves() {
      return (state.legal || []).map((text) => [text, text.match(MOVE)]).filter(([, m]) => m);
    }

    // Meshes are rebuilt on every update; their GPU buffers are freed first.
    function clearWorld() {
      world.traverse((node) => {
        node.geometry?.dispose();
        node.material?.map?.dispose();
        node.material?.dispose();
      });
      world.clear();
    }

    function build() {
      clearWorld();
      squares.clear();
      const view = state.view;
      const parsed = parsePosition(view.position);
      size = parsed.size;
      orbit.distance = size * 1.6 + 3;
      const moves = legalMoves();
      const targets = new Set(moves.filter(([, m]) => m[1] === selected).map(([, m]) => m[2]));
      const starts = new Set(moves.map(([, m]) => m[1]));
      const last = view.last_move ? parseMove(view.last_move) : null;
      const centre = FILES[(size - 1) / 2] + ((size + 1) / 2);
      const corners = new Set([`a1`, `a${size}`, `${FILES[size - 1]}1`, `${FILES[size - 1]}${size}`]);

      const base = new THREE.Mesh(new THREE.BoxGeometry(size + 0.6, 0.3, size + 0.6),
        new THREE.MeshStandardMaterial({ color: "#7a5230" }));
      base.position.y = -0.2;
      world.add(base);
      for (let rank = 1; rank <= size; rank++) {
        for (let file = 0; file < size; file++) {
          const name = FILES[file] + rank;
          let colour = (file + rank) % 2 ? "#e8d3a8" : "#d7bd86";
          if (name === centre || corners.has(name)) colour = "#a8673a";
          if (last && (last.from === name || last.to === name)) colour = "#f0c64a";
          if (name === selected) colour = "#6fa8ff";
          const tile = new THREE.Mesh(new THREE.BoxGeometry(0.96, 0.1, 0.96), new THREE.MeshStandardMaterial({ color: colour }));
          tile.position.copy(toWorld(name));
          tile.userData.square = name;
          world.add(tile);
          squares.set(name, tile);
          if (targets.has(name)) {
            const mark = new THREE.Mesh(new THREE.CylinderGeometry(0.18, 0.18, 0.06, 20),
              new THREE.MeshStandardMaterial({ color: "#2e9e54", emissive: "#124d25" }));
            mark.position.copy(toWorld(name)).setY(0.08);
            world.add(mark);
          }
        }
      }
      const coordinates = labels();
      world.add(coordinates);
      for (const name of last?.captured || []) world.add(cross(name));
      let moved = null;
      for (const [name, kind] of parsed.pieces) {
        const mesh = piece(kind);
        mesh.position.copy(toWorld(name));
        if (name === selected) mesh.position.y += 0.25;
        mesh.traverse((part) => { part.userData.square = name; });
        world.add(mesh);
        if (last && name === last.to) moved = mesh;
        if (kind === "K") el.dataset.king = name;
      }
      el.dataset.movable = [...starts].join(" ");
      el.dataset.targets = [...targets].join(" ");
      el.dataset.last = last ? `${last.from} ${last.to}` : "";
      el.dataset.captured = (last?.captured || []).join(" ");
      el.dataset.labels = String(coordinates.children.length);
      // A move not seen yet slides from where it started.
      if (moved && view.last_move !== shown && shown !== undefined) slide(moved, toWorld(last.from), toWorld(last.to));
      shown = view.last_move;
      const outcome = state.result || view.verdict;
      info.textContent = state.result
        ? describeResult("tafl", state.result)
        : outcome ? t("board.game-over")
          : t("board.to-move", { side: seatName("tafl", view.to_move === "defenders" ? 1 : 0) }) +
            (view.last_move ? ` · ${t("board.last", { action: view.last_move })}` : "");
      render();
    }

    // A click selects one of the movable pieces, or plays the move to a highlighted square.
    function clickAt(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      const pointer = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
      const ray = new THREE.Raycaster();
      ray.setFromCamera(pointer, camera);
      const hit = ray.intersectObjects(world.children, true).find((h) => h.object.userData.square);
      if (!hit) return;
      const name = hit.object.userData.square;
      const move = legalMoves().find(([, m]) => m[1] === selected && m[2] === name);
      if (move) {
        selected = null;
        state = sent(state);
        build();
        return onAction(move[0]);
      }
      selected = legalMoves().some(([, m]) => m[1] === name) && selected !== name ? name : null;
      build();
    }

    // Dragging turns the camera; a press released without moving is a click.
    let drag = null;
    canvas.addEventListener("pointerdown", (event) => {
      drag = { x: event.clientX, y: event.clientY, moved: false };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      drag.moved = true;
      orbit.azimuth -= dx * 0.01;
      orbit.elevation = Math.min(1.5, Math.max(0.15, orbit.elevation + dy * 0.01));
      drag.x = event.clientX;
      drag.y = event.clientY;
      render();
    });
    canvas.addEventListener("pointerup", (event) => {
      if (drag && !drag.moved) clickAt(event.clientX, event.clientY);
      drag = null;
    });
    canvas.addEventListener("wheel", (event) => {
      event.preventDefault();
      orbit.distance = Math.min(40, Math.max(5, orbit.distance * (event.deltaY > 0 ? 1.1 : 0.9)));
      render();
    }, { passive: false });

    el.project = (name) => {
      const point = toWorld(name).project(camera);
      const rect = canvas.getBoundingClientRect();
      return { x: rect.left + ((point.x + 1) / 2) * rect.width, y: rect.top + ((1 - point.y) / 2) * rect.height };
    };
    const observer = new ResizeObserver(resize);
    observer.observe(el);

    return {
      update(next) {
        state = next;
        selected = null;
        build();
        resize();
      },
      // Turning round puts the camera behind the other side, however it was dragged.
      setFlip(flipped) {
        orbit.azimuth = behind(flipped);
        render();
      },
      destroy() {
        if (sliding) cancelAnimationFrame(sliding);
        observer.disconnect();
        clearWorld();
        renderer.dispose();
        delete el.project;
        el.replaceChildren();
      },
    };
  },
};
