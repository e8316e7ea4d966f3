// Typesets every .math element with the vendored KaTeX (the element's text is TeX); without
// scripts the TeX stays readable as it is.
document.addEventListener("DOMContentLoaded", function () {
  if (typeof katex === "undefined") {
    return;
  }
  document.querySelectorAll(".math").forEach(function (el) {
    katex.render(el.textContent, el, { throwOnError: false, strict: "ignore" });
  });
});
