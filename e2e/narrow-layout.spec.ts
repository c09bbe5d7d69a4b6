import { consoleProblems, expect, expectAccessible, horizontalOverflow, openDemo, selectTool, test } from './demo-page.ts';

// A long unbroken argument used to widen the page (the transcript scrolled sideways and cut "SERVER" to "RVER").
const long = 'a'.repeat(400);

for (const width of [320, 360, 375, 420]) {
  test(`at ${width} px nothing scrolls sideways, long lines included, and a tapped tool's form comes into view`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const problems = consoleProblems(page);
    await openDemo(page);
    expect(await horizontalOverflow(page)).toEqual({ scrollWidth: width, clientWidth: width, widest: '' });

    // The URL field has the row to itself, not a sliver beside the button (which goes under it).
    const [url, row] = [await page.getByTestId('server-url').boundingBox(), await page.locator('.server-row').boundingBox()];
    expect(url && row && Math.abs(url.width - row.width) < 1).toBe(true);

    // One column: the form is below the tool list, yet tapping a tool scrolls it into view and focuses its heading.
    const form = await selectTool(page, 'match_pattern');
    const heading = page.getByTestId('tool-heading');
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport({ ratio: 1 });
    await expect(form.getByTestId('field-text')).toBeInViewport({ ratio: 1 });
    // Tab goes on to the first field.
    await page.keyboard.press('Tab');
    await expect(form.getByTestId('field-text')).toBeFocused();

    await form.getByTestId('field-text').fill(long);
    await expect(form).toHaveAttribute('data-validation', 'valid');
    await form.getByTestId('call-button').click();
    const result = page.getByTestId('result').last();
    await expect(result.getByTestId('content-text')).toContainText('match_pattern ran with');

    expect(await horizontalOverflow(page)).toEqual({ scrollWidth: width, clientWidth: width, widest: '' });
    // The header spans the page, and the speaker labels are whole and inside their messages.
    const header = await page.locator('header.top').boundingBox();
    expect(header?.width).toBe(width);
    const transcript = page.getByTestId('transcript');
    expect(await transcript.evaluate((list) => list.scrollWidth - list.clientWidth)).toBe(0);
    const speaker = result.locator('.speaker');
    await expect(speaker).toHaveText('server');
    const [speakerBox, resultBox] = [await speaker.boundingBox(), await result.boundingBox()];
    expect(speakerBox && resultBox && speakerBox.x >= resultBox.x && speakerBox.x + speakerBox.width <= resultBox.x + resultBox.width).toBe(
      true,
    );
    await expectAccessible(page, `narrow viewport (${width} px)`);
    // A normal connect and call: nothing in the console (no 405 for the optional GET stream, no warning).
    expect(problems).toEqual([]);
  });
}
