package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The CRUD mock's watch listener may wait up to a minute when its WebSocket fails or closes; wrapped, that wait
 * leaves the calling thread (the mock's only event loop) at once, and the rest of a watch's life stays on it.
 */
class WatchListenerOffTheLoopTest {
    private static final WebSocket SOCKET = new WebSocket() {
        @Override
        public RecordedRequest request() {
            return null;
        }

        @Override
        public boolean send(String text) {
            return true;
        }

        @Override
        public boolean send(byte[] bytes) {
            return true;
        }

        @Override
        public boolean close(int code, String reason) {
            return true;
        }
    };

    /** Blocks in its end as the mock's WatchEventsListener does when a send is stuck, until released. */
    private static final class StuckWatch extends WebSocketListener {
        final CountDownLatch released = new CountDownLatch(1);
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            calls.add("open on " + Thread.currentThread().getName());
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            calls.add("message on " + Thread.currentThread().getName());
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
            await();
            calls.add("failure " + failure.getMessage());
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            await();
            calls.add("closed " + code);
        }

        private void await() {
            try {
                released.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aFailureOrACloseThatWaitsLeavesTheCallingThreadAtOnce() throws Exception {
        StuckWatch watch = new StuckWatch();
        WatchListenerOffTheLoop wrapped = new WatchListenerOffTheLoop(watch);
        String loop = Thread.currentThread().getName();

        wrapped.onOpen(SOCKET, null);
        wrapped.onMessage(SOCKET, "{}");
        long started = System.nanoTime();
        wrapped.onFailure(SOCKET, new java.io.IOException("connection reset"), null);
        wrapped.onClosed(SOCKET, 1006, "gone");
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(tookMillis).as("the caller did not wait for the stuck ends").isLessThan(5_000);
        assertThat(watch.calls).containsExactly("open on " + loop, "message on " + loop);
        watch.released.countDown();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> watch.calls.size() == 4);
        assertThat(watch.calls).contains("failure connection reset", "closed 1006");
    }
}
