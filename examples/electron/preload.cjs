// The renderer's one door to the engine: a REST API request, answered by the main process.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld('lantern', { request: (request) => ipcRenderer.invoke('lantern', request) });
