// A link from ./gpumeter token --console carries the token in the fragment (#token=…), which the browser never sends
// to a server. Any site can send a browser to such a link, with a token of its choosing: so the page takes the token
// out of the address bar and history, asks the console whose token it is (the console verifies its signature), shows
// that, and signs in only when the user clicks. A link opened on this very page changes only the fragment, so the page
// is not loaded again: hashchange brings it then.
(function () {
  'use strict';

  function show(id, visible) {
    document.getElementById(id).hidden = !visible;
  }

  function refuse(detail) {
    document.getElementById('link-refused-detail').textContent = detail;
    show('link-checking', false);
    show('link-confirm', false);
    show('link-refused', true);
  }

  function confirmHolder(token, holder) {
    document.getElementById('link-subject').textContent = holder.subject;
    document.getElementById('link-button-subject').textContent = holder.subject;
    document.getElementById('link-groups').textContent = (holder.groups || []).join(', ') || '(none)';
    document.getElementById('link-expires').textContent = holder.expires;
    document.getElementById('link-token').value = token;
    show('link-checking', false);
    show('link-refused', false);
    show('link-confirm', true);
  }

  function checkFragment() {
    var hash = window.location.hash;
    if (hash.indexOf('#token=') !== 0) {
      return;
    }
    var token;
    try {
      token = decodeURIComponent(hash.substring('#token='.length));
    } catch (e) {
      token = '';
    }
    history.replaceState(null, '', window.location.pathname + window.location.search);
    document.getElementById('link-token').value = '';
    show('link-signin', true);
    show('link-confirm', false);
    show('link-refused', false);
    show('link-checking', true);
    fetch('/signin/verify', {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: {'Content-Type': 'application/x-www-form-urlencoded', 'Accept': 'application/json'},
      body: new URLSearchParams({token: token}).toString()
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) {
          confirmHolder(token, body);
        } else {
          refuse(body.detail || 'The console refused this token.');
        }
      });
    }).catch(function () {
      refuse('The console could not be asked about this token; try again.');
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', checkFragment);
  } else {
    checkFragment();
  }
  window.addEventListener('hashchange', checkFragment);
})();
