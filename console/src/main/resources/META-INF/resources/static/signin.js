// A link from ./gpumeter token --console carries the token in the fragment (#token=…), which the browser never sends
// to a server: take it out of the address bar and history, then post it as if it had been pasted. A link opened on
// this very page changes only the fragment, so the page is not loaded again: hashchange brings it then.
(function () {
  'use strict';

  function signInFromFragment() {
    var hash = window.location.hash;
    if (hash.indexOf('#token=') !== 0) {
      return;
    }
    var token = decodeURIComponent(hash.substring('#token='.length));
    history.replaceState(null, '', window.location.pathname + window.location.search);
    var field = document.getElementById('token');
    if (field && token) {
      field.value = token;
      field.form.submit();
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', signInFromFragment);
  } else {
    signInFromFragment();
  }
  window.addEventListener('hashchange', signInFromFragment);
})();
