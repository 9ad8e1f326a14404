// How the parts the server sends are morphed into the page: idiomorph (static/vendor/idiomorph-ext),
// through the "morph" swap defined here (the parts carry hx-swap-oob="morph"). What is there stays
// there: the nodes, so the focus, the caret, the scroll position and the listeners; a field's
// value typed, a box ticked or an option chosen and not yet sent (changedHere), and the one
// being typed in (ignoreActiveValue); a <details> as the player left it (but one marked
// data-open-while-playing, the game's screens, opens where the server draws it open: as the
// region is morphed, so that a finished table's end undone on another phone brings them back at
// once and the page never shrinks in between). What is never morphed: a node that shows a newer version
// than the update brings (a stepper's own answer is ahead of the stream: its data-v), and a
// form whose write is on its way (htmx marks it htmx-request; its answer must find it), nor one
// being edited that no field holds yet (data-dirty).
// What the server said to this phone's last form (data-said) is drawn whatever the version. A value
// the server refused stays for the player to mend, but not past a newer save of its row.
import { pageVersion } from "./versions.js";

var bringing = null;  // the version of the update being drawn, while it is drawn
var answering = null;  // the element whose request it answers (htmx marks it htmx-request until after)
export function drawing(version, from) { bringing = version; answering = from || null; }

// The version a node of the page shows: the nearest data-v, else the page's own.
function shows(node) {
  var marked = node.closest("[data-v]");
  return marked ? parseInt(marked.getAttribute("data-v"), 10) : pageVersion();
}
// (data-v first: the ancestors are looked up only for a part's own node, not for every node morphed)
function newer(node) {
  if (node.nodeType !== 1 || bringing === null || !node.hasAttribute("data-v")) return false;
  return parseInt(node.getAttribute("data-v"), 10) > bringing && !node.closest("[data-said]");
}
// a form whose write is on its way, or that the player is editing in a way no field holds (a
// pattern grid painted cell by cell: a game's own script marks it data-dirty until it is saved)
function inHand(node) {
  return node.nodeType === 1 && node.tagName === "FORM" && node !== answering &&
    (node.classList.contains("htmx-request") || node.getAttribute("data-dirty") === "true");
}
function leftAsIs(node) { return newer(node) || inHand(node); }
// A node about to go that holds such a form (the question a write answers, gone with a push that
// came first): it stays until the write's own answer, else htmx, its form detached, tells no one
// that the write was answered and the taps after it wait for ever.
function holdsInHand(node) {
  return node.nodeType === 1 && Array.prototype.some.call(node.querySelectorAll("form.htmx-request, form[data-dirty]"), inHand);
}

// The values of a form the server refused, kept for the player to mend, until a newer save of its
// row is drawn (another phone's): a field whose server value becomes one it was neither before the
// refusal nor in the refusal's answer (which may draw the value refused) shows the server's. A value
// typed since the refusal is the player's again, and stays.
var refusedHere = new WeakMap(), refusing = null;
function typed(f) { return (f.tagName === "INPUT" && f.type !== "hidden") || f.tagName === "TEXTAREA"; }
function serverValue(f) { return f.type === "checkbox" || f.type === "radio" ? f.defaultChecked : f.defaultValue; }
// Before a refusal's answer is drawn (update.js): the server's values of the form sent.
export function refusalComing(form) {
  refusing = form && form.elements ? { form: form, was: new Map() } : null;
  if (refusing) Array.prototype.forEach.call(form.elements, function (f) { if (typed(f)) refusing.was.set(f, serverValue(f)); });
}
// After it was drawn: what the fields hold, and the server's values, before and in the answer.
export function refusalDrawn() {
  var r = refusing;
  refusing = null;
  if (!r || !r.form.isConnected) return;
  Array.prototype.forEach.call(r.form.elements, function (f) {
    if (typed(f)) refusedHere.set(f, { value: f.value, checked: f.checked, servers: [r.was.get(f), serverValue(f)] });
  });
}
// A form drawn anew: if one of its fields has a new server value, its row was saved since the
// refusal, and every value refused in it goes (a field may be saved as it was: 0 before, 0 after).
function savedAnew(form, young) {
  var olds = Array.prototype.filter.call(form.elements, typed);
  var youngs = Array.prototype.filter.call(young.querySelectorAll("input, textarea"), typed);
  var saved = olds.some(function (f, i) {
    var refused = refusedHere.get(f);
    return refused && youngs[i] && refused.servers.indexOf(serverValue(youngs[i])) < 0;
  });
  if (saved) olds.forEach(function (f) { var refused = refusedHere.get(f); if (refused) refused.outlived = true; });
}
function outlived(node, young) {
  var refused = refusedHere.get(node);
  if (!refused || (!refused.outlived && refused.servers.indexOf(serverValue(young)) >= 0)) return false;
  refusedHere.delete(node);
  return node.value === refused.value && node.checked === refused.checked;
}
function takeServers(old, young) {
  drawAround(old, young);
  old.value = young.defaultValue;
  old.checked = young.defaultChecked;
}

// A field changed here and not sent: a value typed, a box ticked, a choice made that the field's
// default (the server's value attribute) does not hold.
function changedHere(node) {
  if (node.nodeType !== 1) return false;
  if (node.tagName === "OPTION") return node.selected !== node.defaultSelected;
  if (node.tagName === "TEXTAREA") return node.value !== node.defaultValue;
  if (node.tagName !== "INPUT" || node.type === "hidden") return false;
  return node.type === "checkbox" || node.type === "radio" ? node.checked !== node.defaultChecked : node.value !== node.defaultValue;
}
// Such a field is drawn as the server has it, attributes and default alike, while what the player
// typed, ticked or chose stays (the browser keeps a changed field's value when its default
// changes); once the server's value is the one typed, the field is no longer changed here.
function drawAround(old, young) {
  Array.prototype.slice.call(old.attributes).forEach(function (a) { if (!young.hasAttribute(a.name)) old.removeAttribute(a.name); });
  Array.prototype.forEach.call(young.attributes, function (a) { if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value); });
  if (old.tagName === "TEXTAREA") old.defaultValue = young.defaultValue;
}

// htmx:oobBeforeSwap: a part is drawn only over one that shows its version or an older one.
export function onlyNewer(evt) {
  var target = evt.detail.target;
  if (bringing === null || !target || target.closest("[data-said]")) return;
  var showing = shows(target);
  if (showing !== null && showing > bringing) evt.detail.shouldSwap = false;
}

// The "morph" swap (the page's hx-ext="morph"), defined again over idiomorph-ext's own (static/vendor,
// kept as fetched): the same morph, after which htmx binds only the nodes the morph added and those
// whose htmx attributes changed, at once. Idiomorph-ext had htmx bind every part again after its
// settle, 20 ms later: a part's data-v is new at every version, so htmx took each for a new node and
// bound it again, a tenth of what a push cost a slow phone (bench/README.md, issue 39).
var toBind = [];
var HTMX_ATTRIBUTE = /^(data-)?(hx|sse)-/;
function morphStyleOf(swapStyle) {
  if (swapStyle === "morph" || swapStyle === "morph:outerHTML") return { morphStyle: "outerHTML" };
  return swapStyle === "morph:innerHTML" ? { morphStyle: "innerHTML" } : null;
}
// `young` (an element, or a fragment's children) morphed into `old`.
export function morphInto(old, young, style) {
  toBind = [];
  window.Idiomorph.morph(old, young, style || { morphStyle: "outerHTML" });
  var nodes = toBind;
  toBind = [];
  nodes.forEach(function (node) { if (node.isConnected) window.htmx.process(node); });
}

// `drawnAlready(text, elt)`: a pushed event's parts drawn by push.js (drawPushed), which leaves htmx
// nothing to swap; anything else is htmx's to draw, with this swap.
export function setUpMorph(added, drawnAlready) {
  var morph = window.Idiomorph;
  if (!morph) return;
  morph.defaults.ignoreActiveValue = true;
  morph.defaults.callbacks.beforeNodeMorphed = function (node, young) {
    if (leftAsIs(node)) return false;
    if (node.tagName === "FORM") savedAnew(node, young);
    if (outlived(node, young)) { takeServers(node, young); return false; }
    if (!changedHere(node)) return true;
    drawAround(node, young);
    return false;
  };
  morph.defaults.callbacks.beforeNodeRemoved = function (node) { return !(leftAsIs(node) || holdsInHand(node)); };
  morph.defaults.callbacks.beforeAttributeUpdated = function (name, node, how) {
    if (name === "open" && node.tagName === "DETAILS") return how !== "remove" && node.hasAttribute("data-open-while-playing");
    if (HTMX_ATTRIBUTE.test(name)) toBind.push(node);
    return true;
  };
  morph.defaults.callbacks.afterNodeAdded = function (node) {
    if (node.nodeType !== 1) return;
    toBind.push(node);
    added(node);
  };
  if (!window.htmx) return;
  window.htmx.defineExtension("morph", {
    isInlineSwap: function (swapStyle) { var style = morphStyleOf(swapStyle); return !style || style.morphStyle === "outerHTML"; },
    handleSwap: function (swapStyle, target, fragment) {
      var style = morphStyleOf(swapStyle);
      if (!style) return false;
      morphInto(target, fragment.children, style);
      return true;  // bound already: nothing for htmx's settle
    },
    // drawn: an empty fragment, which htmx's swap takes as parsed (an empty text it parses as a document)
    transformResponse: function (text, xhr, elt) {
      return !xhr && drawnAlready && drawnAlready(text, elt) ? document.createDocumentFragment() : text;
    }
  });
}
