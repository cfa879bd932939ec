// Applies the remembered theme before the first paint, so a dark-theme user
// never sees a flash of the light one. The toggle lives in app.js.
(function () {
  try {
    var t = localStorage.getItem("quarry.theme");
    if (t === "dark" || t === "light") document.documentElement.setAttribute("data-theme", t);
  } catch (e) { /* storage unavailable: follow the system */ }
})();
