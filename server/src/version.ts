// The version users see (`--version`, the server's name in the editor): the manifest's, never a copy.

import { version } from '../../package.json';

export const WORKBENCH_VERSION: string = version;
