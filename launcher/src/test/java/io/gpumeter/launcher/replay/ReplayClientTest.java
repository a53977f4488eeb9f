package io.gpumeter.launcher.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replay client against a stand-in collector that answers as the real one does. */
class ReplayClientTest {

    static byte[] stream(int lines) {
        return StandInCollector.stream(lines).getBytes(StandardCharsets.UTF_8);
    }

    @RegisterExtension
    final StandInCollector collector = StandInCollector.started();

    ReplayClient client(int inFlight, List<ReplayClient.Stored> progress) {
        return new ReplayClient(collector.endpoint(), Optional.of("t0ken"), inFlight, 3, Duration.ofMillis(50), progress::add);
    }

    @Test
    void everyLineGoesOnceInRequestsOfTheirSizeTwoAtATime() throws Exception {
        // each request holds one line the collector had already
        collector.stores(1, 1_000, 1);
        collector.stores(1_001, 1_000, 1);
        collector.stores(2_001, 500, 1);
        List<ReplayClient.Stored> progress = new CopyOnWriteArrayList<>();
        byte[] stream = stream(2_500);
        ReplayClient.Outcome outcome = client(2, progress).replay(new RequestCutter(new ByteArrayInputStream(stream), 1_000, 1 << 20));

        assertEquals(List.of(), outcome.refused());
        assertEquals(2_500, outcome.events());
        assertEquals(List.of(1, 2, 3), outcome.stored().stream().map(s -> s.request().index()).toList());
        assertEquals(List.of(1_000L, 1_000L, 500L), outcome.stored().stream().map(ReplayClient.Stored::events).toList());
        assertEquals(List.of(999L, 999L, 499L), outcome.stored().stream().map(ReplayClient.Stored::accepted).toList());
        assertEquals(3, progress.size());
        List<String> sorted = new ArrayList<>(collector.bodies());
        sorted.sort((a, b) -> Integer.compare(firstLine(a), firstLine(b)));
        assertEquals(new String(stream, StandardCharsets.UTF_8), String.join("", sorted), "every line once, in its request");
        assertEquals(2, collector.mostOpen(), "two requests open at once, never three");
        assertTrue(collector.authorizations().stream().allMatch("Bearer t0ken"::equals), collector.authorizations().toString());
    }

    @Test
    void theNextRequestStartsOnceTheOneBeforeItIsHandedOverWhole() throws Exception {
        // Bodies of about 15 MB, far more than a socket's buffers hold: the client writes the first one's second half
        // only once the collector reads on after its pause.
        byte[] stream = stream(1_000_000);
        try (SlowReadingCollector slow = new SlowReadingCollector(500, 500_000)) {
            ReplayClient.Outcome outcome = new ReplayClient(slow.endpoint(), Optional.of("t0ken"), 2, 3,
                    Duration.ofMillis(50), s -> { }).replay(new RequestCutter(new ByteArrayInputStream(stream), 500_000,
                    1 << 26));

            assertEquals(List.of(), outcome.refused());
            assertEquals(1_000_000, outcome.events());
            assertEquals(List.of("arrived 1", "resumed 1", "arrived 2"), slow.happenings);
            assertEquals(2, slow.mostOpen(), "the second request was open while the first was answered");
        }
    }

    private static int firstLine(String body) {
        String first = body.substring(body.indexOf("\"line\":") + 7);
        return Integer.parseInt(first.substring(0, first.indexOf('}')));
    }

    @Test
    void aRequestTheCollectorCannotTakeNowIsSentAgain() throws Exception {
        collector.unavailableOnce();
        collector.stores(1, 10, 0);
        ReplayClient.Outcome outcome = client(1, new ArrayList<>()).replay(
                new RequestCutter(new ByteArrayInputStream(stream(10)), 1_000, 1 << 20));
        assertEquals(List.of(), outcome.refused());
        assertEquals(10, outcome.events());
        assertEquals(2, collector.calls().size());
    }

    @Test
    void aCollectorThatStaysUnavailableIsGivenUpOnAfterTheAttempts() throws Exception {
        collector.unavailable();
        ReplayClient.Outcome outcome = client(1, new ArrayList<>()).replay(
                new RequestCutter(new ByteArrayInputStream(stream(10)), 1_000, 1 << 20));
        assertEquals(1, outcome.refused().size());
        assertTrue(outcome.refused().get(0).reason().contains("HTTP 503"), outcome.refused().get(0).reason());
        assertTrue(outcome.refused().get(0).reason().endsWith("gave up after 3 attempts"), outcome.refused().get(0).reason());
        assertEquals(3, collector.calls().size());
    }

    @Test
    void theFirstRefusalStopsTheReplayAndNamesTheLineOfTheStream() throws Exception {
        collector.stores(1, 1_000, 0);
        collector.refuses(1_001);
        ReplayClient.Outcome outcome = client(1, new ArrayList<>()).replay(
                new RequestCutter(new ByteArrayInputStream(stream(5_000)), 1_000, 1 << 20));
        assertEquals(1, outcome.stored().size());
        assertEquals(1, outcome.refused().size());
        assertEquals("request 2 (lines 1001–2000) refused with HTTP 400, at line 1003 of the stream: line 3: not valid JSON",
                outcome.refused().get(0).reason());
        assertEquals(2, collector.calls().size(), "nothing is sent after a refusal");
    }

    @Test
    void aCollectorThatIsNotThereIsGivenUpOnInWords() throws Exception {
        URI nobody = collector.endpoint();
        collector.close();
        ReplayClient client = new ReplayClient(nobody, Optional.empty(), 1, 2, Duration.ofMillis(10), s -> { });
        ReplayClient.Outcome outcome = client.replay(new RequestCutter(new ByteArrayInputStream(stream(3)), 10, 1 << 20));
        assertEquals(1, outcome.refused().size());
        assertTrue(outcome.refused().get(0).reason().startsWith("request 1 (lines 1–3): no answer from 127.0.0.1:" + nobody.getPort()),
                outcome.refused().get(0).reason());
    }
}
