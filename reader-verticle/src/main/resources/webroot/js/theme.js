// Theme before first paint: a classic script in every page's <head> (no inline script: the CSP forbids it) sets
// document.documentElement.dataset.theme to the remembered choice, else the system's (prefers-color-scheme).
(function () {
  var KEY = 'mc.theme';
  var root = document.documentElement;
  var light = window.matchMedia ? window.matchMedia('(prefers-color-scheme: light)') : null;
  function saved() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === 'light' || value === 'dark' ? value : null;
    } catch (e) {
      return null;
    }
  }
  root.dataset.theme = saved() || (light && light.matches ? 'light' : 'dark');
  if (light && light.addEventListener) {
    // No choice made: the page follows the system when it changes.
    light.addEventListener('change', function (event) {
      if (!saved()) root.dataset.theme = event.matches ? 'light' : 'dark';
    });
  }
}());
