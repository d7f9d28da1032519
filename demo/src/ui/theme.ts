/** Light and dark themes: the system's choice until the user picks one, remembered in localStorage. */
const KEY = 'warpfold-inspector-theme';

function apply(theme: 'light' | 'dark', button: HTMLButtonElement): void {
  document.documentElement.dataset.theme = theme;
  button.setAttribute('aria-pressed', String(theme === 'dark'));
  button.textContent = theme === 'dark' ? 'Light theme' : 'Dark theme';
}

export function applyStoredTheme(button: HTMLButtonElement): void {
  const stored = localStorage.getItem(KEY);
  const theme =
    stored === 'dark' || stored === 'light'
      ? stored
      : matchMedia('(prefers-color-scheme: dark)').matches
        ? 'dark'
        : 'light';
  apply(theme, button);
}

export function toggleTheme(button: HTMLButtonElement): void {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  localStorage.setItem(KEY, next);
  apply(next, button);
}
