/**
 * The little script every page loads: copy buttons (`data-copy="ID"` copies the text of
 * element ID). Pages work without it.
 */
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.addEventListener('click', () => {
    const source = document.getElementById(button.dataset.copy ?? '');
    const status = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    const text = source?.textContent ?? '';
    const done = (message: string) => {
      if (status) status.textContent = message;
    };
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(
        () => done('Copied.'),
        () => done('Copying failed: select the key and copy it by hand.'),
      );
    } else {
      done('Select the key and copy it by hand.');
    }
  });
}
