// What the game pages (play.js, replay.js) share: the players' names the
// page lists, a colour said by name, an element with its text, a result in
// words. Loaded before them; text is written with textContent only.
"use strict";

window.murusGame = Object.freeze({
  // The players' names by colour letter, from the page's #names list.
  names() {
    const names = {};
    for (const li of document.querySelectorAll("#names li")) {
      names[li.dataset.letter] = li.textContent;
    }
    return names;
  },

  // A colour as the pages say it: "Romans (r)", or its letter.
  who(names, letter) {
    return names[letter] ? names[letter] + " (" + letter + ")" : letter;
  },

  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  },

  resultText(names, r) {
    if (r.winner === null || r.winner === undefined) {
      return "Drawn" + (r.reason ? " by " + r.reason : "") + ".";
    }
    let text = this.who(names, r.winner) + " won";
    if (r.reason) text += " by " + r.reason;
    if (r.by) text += " (" + r.by + ")";
    return text + ".";
  },
});
