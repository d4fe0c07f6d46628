/**
 * A stand-in for https://apis.google.com/js/api.js, served to the browser by Playwright's
 * context.route() in e2e tests only (the real script cannot be reached here). It implements the
 * part of gapi.iframes that Firebase's popup sign-in and the Auth Emulator's helper iframe use:
 * the page opens the emulator's iframe and registers an 'authEvent' handler; the iframe finds its
 * parent and sends the popup's result. Messages travel by postMessage.
 */
export const GAPI_STUB = `
(function () {
  var TAG = '__dwGapiStub';
  var FILTER = { crossOrigin: true };
  var nextId = 1;
  var pendingReplies = {};

  function Channel(target) {
    this.target = target;
    this.handlers = {};
    this.queue = [];
  }
  Channel.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
    var waiting = this.queue.filter(function (m) { return m.name === name; });
    this.queue = this.queue.filter(function (m) { return m.name !== name; });
    for (var i = 0; i < waiting.length; i++) this.deliver(waiting[i]);
  };
  Channel.prototype.deliver = function (msg) {
    var handler = this.handlers[msg.name];
    if (!handler) { this.queue.push(msg); return; }
    var self = this;
    Promise.resolve(handler(msg.data)).then(function (result) {
      self.target.postMessage({ tag: TAG, kind: 'reply', id: msg.id, result: [result] }, '*');
    });
  };
  Channel.prototype.send = function (name, data, callback) {
    var id = nextId++;
    if (callback) pendingReplies[id] = callback;
    this.target.postMessage({ tag: TAG, kind: 'send', id: id, name: name, data: data }, '*');
  };

  var channels = [];
  function channelFor(source) {
    for (var i = 0; i < channels.length; i++) if (channels[i].target === source) return channels[i];
    return null;
  }

  window.addEventListener('message', function (event) {
    var msg = event.data;
    if (!msg || msg.tag !== TAG) return;
    if (msg.kind === 'reply') {
      var callback = pendingReplies[msg.id];
      delete pendingReplies[msg.id];
      if (callback) callback(msg.result);
      return;
    }
    var channel = channelFor(event.source);
    if (msg.kind === 'ready') {
      if (channel && channel.onReady) channel.onReady();
      return;
    }
    if (msg.kind === 'send' && channel) channel.deliver(msg);
  });

  function IframeHandle(element) {
    this.element = element;
    this.channel = null;
    this.ready = false;
    this.readyCallbacks = [];
  }
  IframeHandle.prototype.restyle = function () { return Promise.resolve(); };
  IframeHandle.prototype.ping = function (callback) {
    var self = this;
    return new Promise(function (resolve) {
      if (self.ready) { if (callback) callback(); resolve(); return; }
      self.readyCallbacks.push(function () { if (callback) callback(); resolve(); });
    });
  };
  IframeHandle.prototype.register = function (name, handler) { this.channel.register(name, handler); };
  IframeHandle.prototype.send = function (name, data, callback) { this.channel.send(name, data, callback); };

  var context = {
    open: function (options, callback) {
      var element = document.createElement('iframe');
      var attributes = options.attributes || {};
      if (attributes.style) {
        for (var key in attributes.style) element.style[key] = attributes.style[key];
      }
      element.setAttribute('aria-hidden', 'true');
      element.tabIndex = -1;
      var handle = new IframeHandle(element);
      (options.where || document.body).appendChild(element);
      element.src = options.url;
      handle.channel = new Channel(element.contentWindow);
      channels.push(handle.channel);
      handle.channel.onReady = function () {
        handle.ready = true;
        var callbacks = handle.readyCallbacks.splice(0);
        for (var i = 0; i < callbacks.length; i++) callbacks[i]();
      };
      return Promise.resolve(callback ? callback(handle) : handle);
    },
    getParentIframe: function () {
      var channel = channelFor(window.parent) || new Channel(window.parent);
      if (channels.indexOf(channel) < 0) channels.push(channel);
      window.parent.postMessage({ tag: TAG, kind: 'ready' }, '*');
      return channel;
    },
  };

  window.gapi = window.gapi || {};
  window.gapi.iframes = { getContext: function () { return context; }, CROSS_ORIGIN_IFRAMES_FILTER: FILTER, Iframe: function () {} };
  window.gapi.load = function (_name, options) {
    var done = typeof options === 'function' ? options : options && options.callback;
    setTimeout(function () { if (done) done(); }, 0);
  };

  var script = document.currentScript;
  var onload = script && script.src ? new URL(script.src).searchParams.get('onload') : null;
  setTimeout(function () {
    if (onload && typeof window[onload] === 'function') window[onload]();
    if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
`;
