// The engine in Electron's main process, its data under the app's user data
// directory; the renderer sends REST API requests over IPC.
import { app, BrowserWindow, ipcMain } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Lantern } from 'lantern-search';
import { fsStorage } from 'lantern-search/node';

const engine = await Lantern.open({ storage: fsStorage(join(app.getPath('userData'), 'search')) });
ipcMain.handle('lantern', (_event, request) => engine.request(request));
app.on('will-quit', () => engine.close());

await app.whenReady();
const window = new BrowserWindow({ webPreferences: { preload: fileURLToPath(new URL('./preload.cjs', import.meta.url)) } });
await window.loadFile('index.html');
