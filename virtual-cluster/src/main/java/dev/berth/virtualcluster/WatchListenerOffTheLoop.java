package dev.berth.virtualcluster;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A watch's WebSocket listener whose end runs off the mock server's event loop. The CRUD mock's
 * {@code WatchEventsListener} waits, in {@code onClosed} and {@code onFailure}, up to a minute for its send
 * executor to stop; a send still in flight needs the event loop that waits for it, and the mock serves every
 * connection on one event loop. A drill saw it: an agent killed while events flowed to its watch froze its
 * cluster's whole API for 30 s, so the manager took a live cluster for a lost one. kube-apiserver never stalls
 * other clients when one watcher goes away; here the wait moves to a thread of its own.
 */
final class WatchListenerOffTheLoop extends WebSocketListener {
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Shared by every watch of the process; each end is short unless a send is stuck, and then it waits alone. */
    private static final ExecutorService ENDS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "watch-end-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    private final WebSocketListener watch;

    WatchListenerOffTheLoop(WebSocketListener watch) {
        this.watch = watch;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
        watch.onBeforeAccept(webSocket, response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        watch.onOpen(webSocket, response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
        watch.onMessage(webSocket, text);
    }

    @Override
    public void onMessage(WebSocket webSocket, ByteString bytes) {
        watch.onMessage(webSocket, bytes);
    }

    @Override
    public void onMessage(WebSocket webSocket, byte[] bytes) {
        watch.onMessage(webSocket, bytes);
    }

    @Override
    public void onPing(WebSocket webSocket, byte[] bytes) {
        watch.onPing(webSocket, bytes);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        watch.onClosing(webSocket, code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        ENDS.execute(() -> watch.onClosed(webSocket, code, reason));
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
        ENDS.execute(() -> watch.onFailure(webSocket, failure, response));
    }
}
