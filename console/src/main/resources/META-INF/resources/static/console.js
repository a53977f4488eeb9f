// Draws every chart of a page from its option, which the server renders as JSON next to it; a held card links to
// its occupants. Runs on the first load and after every htmx swap (boosted links and forms).
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

  document.addEventListener('DOMContentLoaded', function () {
    draw(document);
  });
  document.addEventListener('htmx:afterSettle', function () {
    draw(document);
  });
  window.addEventListener('resize', resizeAll);
})();
