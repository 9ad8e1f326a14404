// The language picker at every page's foot (templates/base.html): a language chosen is sent at
// once, and the page comes back in it. Without JavaScript the form's own button sends it. An
// error page names no way back (its bytes are the same for every address): the address shown.
export function pickLanguage(evt) {
  var select = evt.target;
  if (!select || select.name !== "lang" || !select.form || !select.form.hasAttribute("data-language-pick")) return;
  var back = select.form.elements.namedItem("next");
  if (back && !back.value) back.value = location.pathname + location.search;
  select.form.submit();
}
