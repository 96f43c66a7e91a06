/** The release, as package.json states it (a test keeps the two equal). */
export const VERSION = '0.1.0';
