// A 3D tafl board drawn with three.js, following the same contract as the 2D board: click one of
// your pieces and its legal destinations light up, click one of them to move (the action text is
// taken from `state.legal`). Drag to turn the camera round the board, wheel or pinch to zoom.
// Clicks are resolved by raycasting from the camera through the pointer. The scene is drawn on
// demand (after an update, a drag or a resize), not in a loop, so an idle board costs nothing.
//
// Files and ranks are labelled round the board; the last move's squares are lit and framed, its
// captures crossed, and the moved piece slides there (unless the user asks for reduced motion).
// The king is tall and gold-crowned on a gold ring, so that it is found at a glance. The colours
// are the board theme's (style.css), as on the 2D board.
//
// For browser tests the container element carries `project(square)`, the square's centre in
// client coordinates, since squares in a canvas have no elements to click, and data attributes
// naming what is drawn (`movable`, `targets`, `last`, `captured`, `king`, `labels`, `slides`).
import * as THREE from "../vendor/three/three.module.min.js";
import { el } from "../dom.js";
import { caption, sent } from "./shared.js";
import { describeResult } from "../results.js";
import { seatName } from "../catalog.js";
import { t } from "../i18n.js";
import { fileName, parseMove, parsePosition, squareCoords, squareName } from "./tafl-notation.js";

const MOVE = /^([a-s]\d+)-([a-s]\d+)/;

export default {
  create(host, { perspective, flip = false, onAction }) {
    const info = caption("");
    let renderer;
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true });
    } catch (error) {
      host.append(el("p", { "data-testid": "no-webgl" }, t("board.no-webgl", { error: error.message })));
      return { update() {}, destroy() { host.replaceChildren(); } };
    }
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    const canvas = renderer.domElement;
    canvas.setAttribute("data-testid", "board3d");
    canvas.classList.add("board3d");
    host.append(canvas, info);

    const scene = new THREE.Scene();
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
      host.dataset.slides = String(++slides);
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
      const [file, rank] = squareCoords(name);
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

    // The canvas is sized by style.css (square, or as tall as the window leaves room for); its
    // drawing buffer follows.
    function resize() {
      const { clientWidth: width, clientHeight: height } = canvas;
      if (!width || !height) return;
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      render();
    }

    function render() {
      placeCamera();
      renderer.render(scene, camera);
    }

    function piece(kind, look) {
      const colour = kind === "t" ? look.dark : look.light;
      const material = new THREE.MeshStandardMaterial({ color: colour, roughness: 0.6 });
      const group = new THREE.Group();
      const king = kind === "K";
      const body = new THREE.Mesh(new THREE.CylinderGeometry(0.28, 0.36, king ? 0.9 : 0.4, 24), material);
      body.position.y = king ? 0.5 : 0.25;
      group.add(body);
      if (king) {
        const gold = () => new THREE.MeshStandardMaterial({ color: look.king, emissive: look.king.clone().multiplyScalar(0.4), metalness: 0.4, roughness: 0.35 });
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
    function label(text, at, colour) {
      const canvas2d = document.createElement("canvas");
      canvas2d.width = canvas2d.height = 64;
      const pen = canvas2d.getContext("2d");
      pen.fillStyle = colour;
      pen.font = "bold 40px sans-serif";
      pen.textAlign = "center";
      pen.textBaseline = "middle";
      pen.fillText(text, 32, 34);
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas2d) }));
      sprite.scale.set(0.42, 0.42, 1);
      sprite.position.copy(at);
      return sprite;
    }

    function labels(colour) {
      const edge = size / 2 + 0.55;
      const group = new THREE.Group();
      for (let i = 0; i < size; i++) {
        const offset = i - (size - 1) / 2;
        for (const side of [-1, 1]) {
          group.add(label(fileName(i), new THREE.Vector3(offset, 0.05, side * edge), colour));
          group.add(label(String(i + 1), new THREE.Vector3(side * edge, 0.05, -offset), colour));
        }
      }
      return group;
    }

    // A cross on a square whose piece the last move took.
    function cross(name, colour) {
      const group = new THREE.Group();
      const red = new THREE.MeshStandardMaterial({ color: colour, emissive: colour.clone().multiplyScalar(0.4) });
      for (const angle of [Math.PI / 4, -Math.PI / 4]) {
        const bar = new THREE.Mesh(new THREE.BoxGeometry(0.75, 0.04, 0.1), red.clone());
        bar.rotation.y = angle;
        group.add(bar);
      }
      red.dispose();
      group.position.copy(toWorld(name)).setY(0.08);
      return group;
    }

    // A square's outline lying on its tile.
    function frame(name, colour) {
      const ring = new THREE.Mesh(new THREE.RingGeometry(0.5, 0.62, 4, 1, Math.PI / 4),
        new THREE.MeshStandardMaterial({ color: colour, side: THREE.DoubleSide }));
      ring.rotation.x = -Math.PI / 2;
      ring.position.copy(toWorld(name)).setY(0.06);
      return ring;
    }

    // The colours of the board theme and the page (style.css), read at each drawing, so that a
    // theme picked while the board shows is drawn at once (see the observer below).
    function colours() {
      const style = getComputedStyle(host);
      const read = (name) => new THREE.Color(style.getPropertyValue(name).trim());
      return {
        scene: read("--bg"), label: style.getPropertyValue("--ink").trim(), base: read("--board-deep"),
        square: read("--board-sq"), squareAlt: read("--board-sq-alt"), special: read("--board-special"),
        last: read("--mark-last"), lastLine: read("--mark-last-line"), selected: read("--mark-select-sq"),
        target: read("--mark-target"), capture: read("--mark-capture-line"),
        dark: read("--piece-dark"), light: read("--piece-light"), king: read("--piece-king"),
      };
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
      const ranks = parsePosition(view.position);
      size = ranks.length;
      orbit.distance = size * 1.6 + 3;
      const moves = legalMoves();
      const targets = new Set(moves.filter(([, m]) => m[1] === selected).map(([, m]) => m[2]));
      const starts = new Set(moves.map(([, m]) => m[1]));
      const last = view.last_move ? parseMove(view.last_move) : null;
      const edge = size - 1;
      const special = new Set([[0, 0], [0, edge], [edge, 0], [edge, edge], [edge / 2, edge / 2]].map(([f, r]) => squareName(f, r)));
      const look = colours();
      scene.background = look.scene;

      const base = new THREE.Mesh(new THREE.BoxGeometry(size + 0.6, 0.3, size + 0.6),
        new THREE.MeshStandardMaterial({ color: look.base }));
      base.position.y = -0.2;
      world.add(base);
      for (let rank = 0; rank < size; rank++) {
        for (let file = 0; file < size; file++) {
          const name = squareName(file, rank);
          let colour = (file + rank) % 2 ? look.squareAlt : look.square;
          if (special.has(name)) colour = look.special;
          if (last && (last.from === name || last.to === name)) colour = look.last;
          if (name === selected) colour = look.selected;
          const tile = new THREE.Mesh(new THREE.BoxGeometry(0.96, 0.1, 0.96), new THREE.MeshStandardMaterial({ color: colour }));
          tile.position.copy(toWorld(name));
          tile.userData.square = name;
          world.add(tile);
          squares.set(name, tile);
          // The last move's squares are framed too, so that they do not differ by colour alone.
          if (last && (last.from === name || last.to === name)) world.add(frame(name, look.lastLine));
          if (targets.has(name)) {
            const mark = new THREE.Mesh(new THREE.CylinderGeometry(0.18, 0.18, 0.06, 20),
              new THREE.MeshStandardMaterial({ color: look.target, emissive: look.target.clone().multiplyScalar(0.4) }));
            mark.position.copy(toWorld(name)).setY(0.08);
            world.add(mark);
          }
        }
      }
      const coordinates = labels(look.label);
      world.add(coordinates);
      for (const name of last?.captured || []) world.add(cross(name, look.capture));
      let moved = null;
      ranks.forEach((line, rank) => line.forEach((kind, file) => {
        if (!kind) return;
        const name = squareName(file, rank);
        const mesh = piece(kind, look);
        mesh.position.copy(toWorld(name));
        if (name === selected) mesh.position.y += 0.25;
        mesh.traverse((part) => { part.userData.square = name; });
        world.add(mesh);
        if (last && name === last.to) moved = mesh;
        if (kind === "K") host.dataset.king = name;
      }));
      host.dataset.movable = [...starts].join(" ");
      host.dataset.targets = [...targets].join(" ");
      host.dataset.last = last ? `${last.from} ${last.to}` : "";
      host.dataset.captured = (last?.captured || []).join(" ");
      host.dataset.labels = String(coordinates.children.length);
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

    host.project = (name) => {
      const point = toWorld(name).project(camera);
      const rect = canvas.getBoundingClientRect();
      return { x: rect.left + ((point.x + 1) / 2) * rect.width, y: rect.top + ((1 - point.y) / 2) * rect.height };
    };
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    // A theme picked in the settings menu while the board shows: drawn again in its colours.
    const themes = new MutationObserver(() => state && build());
    themes.observe(document.documentElement, { attributeFilter: ["data-theme", "data-board"] });

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
        themes.disconnect();
        clearWorld();
        renderer.dispose();
        delete host.project;
        host.replaceChildren();
      },
    };
  },
};
