// The host-key link `companion serve` prints, /plays#key=KEY: the key is in the fragment, which a
// browser never sends, so neither a proxy's log nor the server's keeps it. The page takes it out of
// the address at once (history, the address bar) and posts it once, in the body of the form the
// page shows for typing it (companion/web/plays.py, take_key), for the cookie that keeps it.
export function takeKeyFromLink() {
  var found = /^#key=(.+)$/.exec(location.hash);
  if (!found) return;
  history.replaceState(null, "", location.pathname + location.search);
  var form = document.getElementById("host-key-form");
  if (!form) return;  // this device holds the key already
  var key;
  try { key = decodeURIComponent(found[1]); } catch (e) { key = found[1]; }
  form.elements.key.value = key;
  if (form.requestSubmit) form.requestSubmit(); else form.submit();
}
