// Draws every chart of a page from its option, which the server renders as JSON next to it; a held card links to
// its occupants; a command's button copies it. Runs on the first load and after every htmx swap (boosted links and forms).
(function () {
  'use strict';

  function draw(root) {
    if (typeof echarts === 'undefined') {
      return;
    }
    root.querySelectorAll('[data-chart]').forEach(function (el) {
      var source = document.getElementById(el.getAttribute('data-chart'));
      if (!source) {
        return;
      }
      var option = JSON.parse(source.textContent);
      option.animation = false; // the figures appear as they are, at once
      var chart = echarts.getInstanceByDom(el) || echarts.init(el, null, { renderer: 'svg' });
      chart.setOption(option, true);
      chart.off('click');
      chart.on('click', function (params) {
        if (params.data && params.data.link) {
          window.location.assign(params.data.link);
        }
      });
      el.setAttribute('data-drawn', 'true');
    });
  }

  function resizeAll() {
    if (typeof echarts === 'undefined') {
      return;
    }
    document.querySelectorAll('[data-chart]').forEach(function (el) {
      var chart = echarts.getInstanceByDom(el);
      if (chart) {
        chart.resize();
      }
    });
  }

  // A command's Copy button copies its block's text as shown (the page escaped it; textContent is the plain text).
  function copied(button, ok) {
    button.textContent = ok ? 'Copied' : 'Select and copy';
    button.classList.toggle('copied', ok);
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) {
      return;
    }
    var text = source.textContent;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button, true); }, function () { copyBySelection(source, button); });
    } else {
      copyBySelection(source, button);
    }
  }

  // Where the clipboard API is not offered (a console served over plain HTTP on another host): the old way.
  function copyBySelection(source, button) {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch (e) {
      ok = false;
    }
    copied(button, ok);
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button.copy') : null;
    if (button) {
      event.preventDefault();
      copy(button);
    }
  });

  document.addEventListener('DOMContentLoaded', function () {
    draw(document);
  });
  document.addEventListener('htmx:afterSettle', function () {
    draw(document);
  });
  window.addEventListener('resize', resizeAll);
})();
