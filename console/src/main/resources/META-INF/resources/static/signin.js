// A link from ./gpumeter token --console carries the token in the fragment (#token=…), which the browser never sends
// to a server: take it out of the address bar and history, then post it as if it had been pasted.
(function () {
  'use strict';
  var hash = window.location.hash;
  if (hash.indexOf('#token=') !== 0) {
    return;
  }
  var token = decodeURIComponent(hash.substring('#token='.length));
  history.replaceState(null, '', window.location.pathname + window.location.search);
  document.addEventListener('DOMContentLoaded', function () {
    var field = document.getElementById('token');
    if (field && token) {
      field.value = token;
      field.form.submit();
    }
  });
})();
