// socket.io's server and the plain adapter, in a module of their own: realtime.ts imports it when the
// first socket request comes.
export { Server } from 'socket.io';
export { Adapter } from 'socket.io-adapter';
