// Typesets every .math element with the vendored KaTeX (the element's text is TeX); without
// scripts the TeX stays readable as it is. On the index, the search box filters the result
// rows as you type: a row stays when it contains every word typed (in its source, id, kind,
// title, statement or paper-number anchors, data-search).
document.addEventListener("DOMContentLoaded", function () {
  if (typeof katex !== "undefined") {
    document.querySelectorAll(".math").forEach(function (el) {
      katex.render(el.textContent, el, { throwOnError: false, strict: "ignore" });
    });
  }
  var box = document.getElementById("search");
  if (!box) {
    return;
  }
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.results tbody tr"));
  var count = document.getElementById("search-count");
  function filter() {
    var words = box.value.toLowerCase().split(/\s+/).filter(function (w) {
      return w.length > 0;
    });
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute("data-search") || "";
      var keep = words.every(function (w) {
        return text.indexOf(w) >= 0;
      });
      row.hidden = !keep;
      if (keep) {
        shown++;
      }
    });
    count.textContent = words.length ? shown + " of " + rows.length + " results" : "";
  }
  box.addEventListener("input", filter);
  filter();
});
