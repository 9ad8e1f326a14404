// The words the page's script writes into the page, in the page's language (issue 29): the
// server renders them in base.html's #words block (companion/web/render.py script_words), a
// JSON data block the CSP allows. An English page has none: each call's English is then said.
var read = null;
function pageWords() {
  if (read === null) {
    var block = document.getElementById("words");
    try { read = block ? JSON.parse(block.textContent) || {} : {}; } catch (e) { read = {}; }
  }
  return read;
}
function filled(text, values) {
  return text.replace(/\{(\w+)\}/g, function (all, name) { return name in values ? String(values[name]) : all; });
}
// The sentence `key` in the page's language, else `english`; {name}s filled from `values`.
export function word(key, english, values) {
  var said = pageWords()[key];
  return filled(typeof said === "string" ? said : english, values || {});
}
// The form of the counted sentence `key` that the language uses for n ("1 tap kept", "5 taps kept";
// Polish has three), by the browser's plural rules for the page's language; English: one or other.
export function counted(key, n, one, other) {
  var forms = pageWords()[key], text = null;
  if (forms && typeof forms === "object") {
    var category = "other";
    try { category = new Intl.PluralRules(document.documentElement.lang || "en").select(n); } catch (e) { /* "other" */ }
    text = forms[category] || forms.other || forms.many || null;
  }
  return filled(typeof text === "string" ? text : (n === 1 ? one : other), { num: n });
}
