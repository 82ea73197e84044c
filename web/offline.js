// The offline page's one action (offline.html): try the page again.
document.querySelector("[data-testid=offline-retry]").addEventListener("click", () => location.reload());
