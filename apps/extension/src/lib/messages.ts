/** The port the side panel holds open while it shows (the worker then sends no notifications). */
export const PANEL_PORT = 'fanpilot-panel';

/** To the worker (from the panel, the options page, or the content script on the fan app). */
export type WorkerRequest = { type: 'follow'; username: string };
export type WorkerResponse = { ok: true; username: string; name: string } | { ok: false; error: string };

/** From the panel over its port. */
export type PanelMessage = { type: 'seen' };
