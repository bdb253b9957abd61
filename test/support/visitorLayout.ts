import type { Page } from 'playwright-core';

/** The sizes a visitor screen must fit (CONTRACT §16, §19, §22): tablets both ways, two phones. */
export const VISITOR_SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 1280 },
  { width: 390, height: 844 },
  { width: 360, height: 640 },
] as const;

/**
 * What is wrong with a visitor screen's layout as shown now, read from the boxes on the page: two controls
 * (buttons, inputs) that overlap (a form scrolling under a bar that stays put is no overlap), text clipped by its box (overflow hidden, or an ellipsis), anything shown
 * outside the window's width, or the page scrolling sideways. Half a pixel of slack (sub-pixel layout).
 */
export function visitorLayoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SLACK = 0.5;
    const problems: string[] = [];
    const describe = (element: Element) => {
      const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ');
      return `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className)}` : ''} "${text.slice(0, 40)}"`;
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility !== 'hidden';
    };
    const controls = [...document.querySelectorAll('button, input, select, textarea')].filter(shown);
    const pinned = (element: Element): boolean => {
      for (let at: Element | null = element; at; at = at.parentElement)
        if (['sticky', 'fixed'].includes(getComputedStyle(at).position)) return true;
      return false;
    };
    controls.forEach((control, index) => {
      const a = control.getBoundingClientRect();
      for (const other of controls.slice(index + 1)) {
        const b = other.getBoundingClientRect();
        if (
          pinned(control) === pinned(other) &&
          Math.min(a.right, b.right) - Math.max(a.left, b.left) > SLACK &&
          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > SLACK
        )
          problems.push(`${describe(control)} overlaps ${describe(other)}`);
      }
    });
    for (const element of document.querySelectorAll('body *')) {
      if (!shown(element)) continue;
      const box = element.getBoundingClientRect();
      // Whatever a screen holds that scrolls (the screen itself) may run past the window; nothing sideways.
      if (box.left < -SLACK || box.right > window.innerWidth + SLACK)
        problems.push(`${describe(element)} is outside the window (${box.left}…${box.right})`);
      const style = getComputedStyle(element);
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      if (clips && !scrolls && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 1)
        problems.push(`${describe(element)} is clipped (${element.scrollWidth} > ${element.clientWidth})`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${window.innerWidth})`);
    return problems;
  });
}
