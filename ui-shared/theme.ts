/**
 * The design tokens both frontends share: one Mantine theme (colours, radius, type scale, focus ring).
 * Contrast: the primary shade on white and white on the primary shade both meet WCAG 2.1 AA (4.5:1) for
 * body text; focus is always visible (focusRing 'always', WCAG 2.4.7).
 */
import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
