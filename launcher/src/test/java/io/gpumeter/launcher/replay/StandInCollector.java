package io.gpumeter.launcher.replay;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * A collector's replay endpoint on the stand-in server: each request is answered as the test says the collector
 * answers the request that holds a given line of the stream (a request the test said nothing of is WireMock's 404),
 * 100 ms late, so that the next request is open meanwhile; every request stays in the journal. Registered as a test's
 * extension ({@code @RegisterExtension}), it stops after each test.
 */
public final class StandInCollector implements AutoCloseable, AfterEachCallback {

    static final String REPLAY = "/api/v1/ingest/kubernetes";
    /** Long enough for the next request to be open meanwhile. */
    private static final Duration LATE = Duration.ofMillis(100);

    private final StandIn standIn = StandIn.start();

    /** A stand-in listening on a free port. */
    public static StandInCollector started() {
        return new StandInCollector();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /** A stream of {@code lines} watch-event lines, each naming its line number. */
    public static String stream(int lines) {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            out.append(line(i)).append('\n');
        }
        return out.toString();
    }

    private static String line(int i) {
        return "{\"type\":\"ADDED\",\"line\":" + i + "}";
    }

    /** Where it listens, as a collector's address. */
    public String base() {
        return standIn.url();
    }

    public URI endpoint() {
        return URI.create(base() + REPLAY + "?cluster=east-1");
    }

    /** The request holding this line of the stream is stored: these events, all but the duplicates accepted. */
    public void stores(int line, int events, int duplicates) {
        standIn.answer(holding(line), StandIn.late(LATE, "{\"cluster\":\"east-1\",\"events\":" + events
                + ",\"accepted\":" + (events - duplicates) + ",\"duplicates\":" + duplicates + ",\"skipped\":0}"));
    }

    /** The request holding this line is refused, as the collector refuses line 3 of a request that is no JSON. */
    public void refuses(int line) {
        standIn.answer(holding(line).atPriority(1), StandIn.json(400,
                "{\"status\":400,\"field\":\"line 3\",\"detail\":\"line 3: not valid JSON\"}")
                .withHeader("Content-Type", "application/problem+json").withFixedDelay((int) LATE.toMillis()));
    }

    /** The first request that arrives cannot be taken now; the next ones are answered as the test said. */
    public void unavailableOnce() {
        standIn.answer(post(urlPathEqualTo(REPLAY)).atPriority(1).inScenario("unavailable")
                .whenScenarioStateIs(Scenario.STARTED).willSetStateTo("available"), unavailable503());
    }

    /** No request can be taken now, however often it is sent. */
    public void unavailable() {
        standIn.answer(post(urlPathEqualTo(REPLAY)).atPriority(1), unavailable503());
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder unavailable503() {
        return StandIn.json(503, "{\"status\":503,\"detail\":\"the ledger is unavailable; nothing of this request is "
                + "stored, send it again\"}").withFixedDelay((int) LATE.toMillis());
    }

    private static MappingBuilder holding(int line) {
        return post(urlPathEqualTo(REPLAY)).withRequestBody(containing(line(line) + "\n"));
    }

    /** Every request that arrived, oldest first. */
    public List<LoggedRequest> calls() {
        return standIn.calls(postRequestedFor(urlPathEqualTo(REPLAY)));
    }

    /** The query of each request ("null": none). */
    public List<String> queries() {
        return calls().stream().map(r -> r.getUrl().contains("?") ? r.getUrl().substring(r.getUrl().indexOf('?') + 1)
                : "null").toList();
    }

    /** The Authorization header of each request ("null": none). */
    public List<String> authorizations() {
        return calls().stream().map(r -> String.valueOf(r.getHeader("Authorization"))).toList();
    }

    /** The bodies of the requests it stored. */
    public List<String> bodies() {
        return standIn.taken(postRequestedFor(urlPathEqualTo(REPLAY))).stream().map(LoggedRequest::getBodyAsString)
                .toList();
    }

    /** The most requests it held open at once. */
    public int mostOpen() {
        return standIn.mostOpen();
    }

    @Override
    public void close() {
        standIn.close();
    }
}
