// The `plumbline/msw` entry for plain Node (see index.js): the TypeScript compiled by tsx's scoped tsImport.
// Types come from mock/msw/index.ts (the "types" condition). msw 2.x is a peer dependency.
import { tsImport } from "tsx/esm/api";

const api = await tsImport("./mock/msw/index.ts", import.meta.url);

export const { createMockHandlers, DEFAULT_MSW_BASE_URL, ReplayFileError } = api;
