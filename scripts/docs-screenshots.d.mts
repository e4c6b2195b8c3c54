// Types of scripts/docs-screenshots.mjs, for test/docs/site.test.ts, which checks the built site's tables in Chromium too.
import type { Browser, Page } from 'playwright-core';

export interface Viewport {
  name: 'desktop' | 'phone';
  width: number;
  height: number;
  isMobile: boolean;
}
export declare const PAGES: readonly { name: string; path: string; full?: boolean }[];
export declare const VIEWPORTS: readonly Viewport[];
export declare function serveSite(dir: string): Promise<{ url: string; close: () => Promise<void> }>;
export declare function tableProblems(page: Page, options: { width: number; tablesFit: boolean }): Promise<string[]>;
export declare function viewportPage(browser: Browser, viewport: Viewport): Promise<Page>;
export declare function visit(page: Page, url: string): Promise<void>;
