// The ES module face of @hookd/hookd: the same client as index.js.
import client from './index.js';

export const { startHookd, resolveHookd, PLATFORMS, HookdClient, ErrorCodes, ResponseError, CancellationTokenSource } = client;
