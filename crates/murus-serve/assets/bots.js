// The playtest summary's "Run the bots' balance check" button: it asks the
// server for the check (POST /api/rules/{key}/bots, JSON), then asks for
// its state every second until it is over, and reloads the page, which
// then shows the bots' figures beside the people's (or why it failed).
// The button is sent disabled and enabled here, once it does something.
// Text from the server is written with textContent only.
"use strict";

(function () {
  const button = document.getElementById("run-bots");
  const status = document.getElementById("bots-status");
  if (!button || !status) return;
  const uri = "/api/rules/" + encodeURIComponent(button.dataset.key) + "/bots";

  async function waitForIt() {
    for (;;) {
      try {
        const r = await fetch(uri, { headers: { Accept: "application/json" } });
        const j = await r.json();
        if (j.state !== "running") {
          location.reload();
          return;
        }
      } catch (_) {
        // The server is away for a moment: ask again.
      }
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "running…";
    const r = await fetch(uri, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    if (r.status !== 202 && r.status !== 409) {
      const j = await r.json().catch(() => ({}));
      status.textContent = j.error || "the server answered " + r.status;
      button.disabled = false;
      return;
    }
    waitForIt();
  });

  // The button comes disabled, so that a click before this script has
  // run is not lost: it serves from now on (unless a check is running).
  if (button.dataset.running === "true") {
    waitForIt();
  } else {
    button.disabled = false;
  }
})();
