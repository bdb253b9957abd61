import type { Page } from 'playwright-core';

/** The sizes the gate must fit (CONTRACT §19): two landscape tablets, a portrait tablet, a phone. */
export const GATE_SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 800, height: 1280 },
  { width: 390, height: 844 },
] as const;

/**
 * What is wrong with the gate's layout as it is on screen now, read from the boxes of what the page shows:
 * - a control (button, input) that leaves its card, or overlaps another control;
 * - anything inside a card (a line of text, a badge) that sticks out of it or is clipped;
 * - two cards that overlap;
 * - a control of the plate form, or the newest result card, not wholly in view between the header and the
 *   status bar (cut off by either, or by the window), or the screen scrolled at all;
 * - the page scrolling sideways.
 * Boxes are compared with half a pixel of slack (sub-pixel layout).
 */
export function gateLayoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SLACK = 0.5;
    const problems: string[] = [];
    const describe = (element: Element) => {
      const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ');
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${text.slice(0, 40)}"`;
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility !== 'hidden';
    };
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.left >= outer.left - SLACK &&
      inner.right <= outer.right + SLACK &&
      inner.top >= outer.top - SLACK &&
      inner.bottom <= outer.bottom + SLACK;
    const overlap = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > SLACK &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > SLACK;

    // The header and the status bar hold controls too; the screen between them scrolls under neither (it
    // clips what is below its end), so only the screen's cards are compared with each other.
    const cardSelector = '.top-bar, .gate-form, .result-card, .gate-side, .status-bar';
    const cards = [...document.querySelectorAll(cardSelector)].filter(shown);
    const screenCards = cards.filter((card) => card.closest('main'));
    const controls = [...document.querySelectorAll('button, input, select, textarea')].filter(shown);

    for (const control of controls) {
      const card = control.parentElement?.closest(cardSelector);
      if (!card) problems.push(`${describe(control)} is in no card`);
      else if (!inside(control.getBoundingClientRect(), card.getBoundingClientRect()))
        problems.push(`${describe(control)} leaves its card ${describe(card)}`);
    }
    controls.forEach((control, index) => {
      for (const other of controls.slice(index + 1)) {
        if (overlap(control.getBoundingClientRect(), other.getBoundingClientRect()))
          problems.push(`${describe(control)} overlaps ${describe(other)}`);
      }
    });
    screenCards.forEach((card, index) => {
      for (const other of screenCards.slice(index + 1)) {
        if (card.contains(other) || other.contains(card)) continue;
        if (overlap(card.getBoundingClientRect(), other.getBoundingClientRect()))
          problems.push(`card ${describe(card)} overlaps card ${describe(other)}`);
      }
    });
    cards.forEach((card) => {
      // Everything a card shows stays inside it, unclipped (a visually hidden tab word is 1 px: not shown).
      const box = card.getBoundingClientRect();
      for (const part of card.querySelectorAll('*')) {
        if (!shown(part)) continue;
        if (!inside(part.getBoundingClientRect(), box))
          problems.push(`${describe(part)} sticks out of ${describe(card)}`);
        const style = getComputedStyle(part);
        const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        if (clips && part.scrollWidth > part.clientWidth + 1 && part.clientWidth > 1)
          problems.push(`${describe(part)} is clipped (${part.scrollWidth} > ${part.clientWidth})`);
      }
    });

    // In view without scrolling: below the header, above the status bar, inside the window.
    const header = document.querySelector('.top-bar')?.getBoundingClientRect();
    const statusBar = document.querySelector('[role="status"]')?.getBoundingClientRect();
    const screen = document.querySelector('main.screen');
    if (!header || !statusBar || !screen) return [...problems, 'no header, status bar or screen'];
    if (screen.scrollTop !== 0 || screen.scrollLeft !== 0) problems.push('the screen is scrolled');
    const view = new DOMRect(0, header.bottom, window.innerWidth, statusBar.top - header.bottom);
    if (statusBar.bottom > window.innerHeight + SLACK) problems.push('the status bar is below the window');
    const mustSee = [
      ...document.querySelectorAll('.gate-form input, .gate-form button'),
      ...document.querySelectorAll('.gate-result > .result-card, .result-list > li:first-child > .result-card'),
    ].filter(shown);
    for (const element of mustSee) {
      if (!inside(element.getBoundingClientRect(), view)) problems.push(`${describe(element)} is not wholly in view`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${window.innerWidth})`);
    return problems;
  });
}
