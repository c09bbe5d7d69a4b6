import { expect, expectAccessible, openDemo, received, test } from './demo-page.ts';

test('lists refused tools with their code and reason, and they cannot be called', async ({ page }) => {
  const before = (await received()).calls.length;
  await openDemo(page);

  const remote = page.getByTestId('tool-fetch_profile');
  await expect(remote).toHaveAttribute('data-verdict', 'refused');
  await expect(remote.getByTestId('refusal-code')).toHaveText('remote_ref');
  await expect(remote.getByTestId('refusal-reason')).toContainText('https://schemas.example.com/profile.json');
  await expect(remote.getByTestId('refusal-reason')).toContainText('never fetched');
  // The struck-through name says why on hover, and "refused" to a screen reader.
  await expect(remote.getByTestId('refused-name')).toHaveAttribute('title', /^Refused \(remote_ref\): .*never fetched/);
  await expect(remote.getByTestId('refused-name')).toContainText('(refused)');

  const bomb = page.getByTestId('tool-expand_everything');
  await expect(bomb).toHaveAttribute('data-verdict', 'refused');
  await expect(bomb.getByTestId('refusal-code')).toHaveText('too_many_subschemas');
  await expect(bomb.getByTestId('refusal-reason')).toContainText('subschemas');

  // Not callable: no button to select them, and clicking them opens no form.
  for (const tool of [remote, bomb]) {
    await expect(tool).toHaveAttribute('aria-disabled', 'true');
    await expect(tool.getByRole('button')).toHaveCount(0);
    await tool.click();
  }
  await expect(page.getByTestId('tool-view')).toHaveCount(0);

  // Accepted tools are callable; one published with draft-03 syntax carries its warning.
  await expect(page.getByTestId('tool-get_weather')).toHaveAttribute('data-verdict', 'accepted');
  await expect(page.getByTestId('tool-legacy_lookup')).toHaveAttribute('data-verdict', 'warning');
  await expect(page.getByTestId('tool-legacy_lookup').getByTestId('tool-warnings')).toContainText('draft3_required');
  await expect(page.getByTestId('tools-count')).toHaveText('4 callable, 2 refused');
  // The status line counts what the panel lists: the gateway's two refusals included.
  await expect(page.getByTestId('verdict-summary')).toHaveText(
    '6 tools: 4 callable, 2 refused · verdicts: 4 compiled here, 0 from cache, 2 from the gateway',
  );
  await expectAccessible(page, 'tools listed');

  const calls = (await received()).calls.slice(before);
  expect(calls.filter((call) => call.name === 'fetch_profile' || call.name === 'expand_everything')).toEqual([]);
});
