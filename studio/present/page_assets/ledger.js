// Full ledger: narrow the table to rows containing what is typed (key, value, citation …).
(function () {
  "use strict";
  const box = document.getElementById("ledger-filter");
  const rows = Array.from(document.querySelectorAll("tr.entry"));
  box.addEventListener("input", () => {
    const wanted = box.value.trim().toLowerCase();
    rows.forEach((row) => { row.hidden = wanted !== "" && !row.textContent.toLowerCase().includes(wanted); });
  });
})();
