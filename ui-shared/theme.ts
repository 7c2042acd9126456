/**
 * The design tokens both frontends share: one Mantine theme (colours, radius, type scale, focus ring).
 * Contrast: the primary shade on white and white on the primary shade both meet WCAG 2.1 AA (4.5:1) for
 * body text; focus is always visible (focusRing 'always', WCAG 2.4.7).
 */
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

// An indigo scale; shade 7 (#3b3fb8) on white is 7.4:1, white on shade 6 (#4c51d4) 5.6:1.
const portcullis: MantineColorsTuple = [
  '#eef0ff', '#dcdefa', '#b6baf0', '#8d93e7', '#6a71df', '#555bda', '#4c51d4', '#3b3fb8', '#3438a5', '#292d92',
];

export const theme = createTheme({
  primaryColor: 'portcullis',
  primaryShade: { light: 6, dark: 4 },
  colors: { portcullis },
  defaultRadius: 'md',
  focusRing: 'always',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});

/**
 * Secondary ("dimmed") text one shade darker than Mantine's default: gray-6 on white is about 3.3:1, under
 * WCAG 2.1 AA's 4.5:1 for body text (1.4.3); gray-7 is about 5.7:1. Pass to MantineProvider's
 * cssVariablesResolver in both apps.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
