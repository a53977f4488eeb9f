package io.gpumeter.billing.rest;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.not;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.gpumeter.billing.rest.LedgerAnswers.*;

/**
 * The ledger as billing's tests see it: {@link StandIn} answering {@link LedgerAnswers} by the window asked for,
 * each answer checked first against the ledger's own example of its read (a field the ledger does not answer fails
 * here). Months chosen for it fail in a chosen way: a 500, a 404, a dropped connection, an answer after 20 s. A window
 * not answered here is empty when it starts on the first of a month, and a 400 otherwise.
 */
public class LedgerStandIn implements QuarkusTestResourceLifecycleManager {

    private static final String GPU_HOURS = "/api/v1/gpu-hours";
    private static volatile StandIn standIn;
    private static final Contract HOURS = Contract.of("ledger", "gpu-hours").freeKeysAt("group");
    private static final Contract CAPACITY_READ = Contract.of("ledger", "capacity").freeKeysAt("group");

    @Override
    public Map<String, String> start() {
        standIn = StandIn.start();
        standIn.answer(get(urlPathEqualTo("/api/v1/normalization")), Contract.of("ledger", "normalization")
                .check(StandIn.text(Map.of("policy", POLICY, "version", "norm-2026.1"))));
        standIn.answer(get(urlPathEqualTo("/api/v1/capacity")).atPriority(9), StandIn.problem(400, "Bad Request"));
        standIn.answer(get(urlPathEqualTo("/api/v1/capacity")).withQueryParam("groupBy", equalTo("model"))
                .atPriority(8), "[]");
        CAPACITY.forEach((window, answer) -> standIn.answer(window(get(urlPathEqualTo("/api/v1/capacity")),
                window.substring(0, window.indexOf('/')), window.substring(window.indexOf('/') + 1))
                .withQueryParam("groupBy", equalTo("model")), CAPACITY_READ.check(answer)));
        failures();
        months();
        june(false).forEach(LedgerStandIn::hours);
        october(false);
        return Map.of("quarkus.rest-client.ledger.url", standIn.url());
    }

    @Override
    public void stop() {
        if (standIn != null) {
            standIn.close();
        }
    }

    private static void failures() {
        standIn.answer(hours(ANSWERS_500), StandIn.problem(500, "Internal Server Error"));
        standIn.answer(hours(DROPS_CONNECTION), StandIn.dropped());
        standIn.answer(hours(ANSWERS_LATE), StandIn.late(Duration.ofSeconds(20), "[]"));
        standIn.answer(hours(ANSWERS_404), StandIn.problem(404, "Not Found"));
        // any other window: none when it starts on the first of a month, else a request billing should not make
        standIn.answer(get(urlPathEqualTo(GPU_HOURS)).atPriority(10), StandIn.problem(400, "Bad Request"));
        standIn.answer(get(urlPathEqualTo(GPU_HOURS)).withQueryParam("from", matching(".*-01T00:00:00Z"))
                .withQueryParam("to", not(absent())).atPriority(9), "[]");
    }

    private static void months() {
        ANOMALY_DAYS.forEach((day, answer) -> hours(get(urlPathEqualTo(GPU_HOURS)).withQueryParam("from", equalTo(day))
                .withQueryParam("groupBy", equalTo("tenant,model")).atPriority(2), answer));
        for (String[] march : new String[][]{{MARCH_FROM, MARCH_TO}, {BERLIN_MARCH_FROM, BERLIN_MARCH_TO}}) {
            hours(march[0], march[1], "", "[]", 8);
            hours(march[0], march[1], "tenant,model", BY_TENANT, 4);
            hours(march[0], march[1], "team,model", BY_TEAM, 4);
            hours(march[0], march[1], "tenant,team,model", BY_TENANT_TEAM, 4);
        }
        for (String[] series : new String[][]{{"day", SERIES_BY_DAY}, {"week", SERIES_BY_WEEK}}) {
            hours(window(get(urlPathEqualTo(GPU_HOURS)), MARCH_FROM, MARCH_TO).withQueryParam("timeZone", equalTo("UTC"))
                    .withQueryParam("groupBy", equalTo("tenant,model," + series[0])).atPriority(3), series[1]);
        }
        for (String[] stretch : new String[][]{{MARCH_FROM, MARCH_5, SERIES_BEFORE_5}, {MARCH_5, MARCH_TO, SERIES_FROM_5}}) {
            hours(window(get(urlPathEqualTo(GPU_HOURS)), stretch[0], stretch[1]).withQueryParam("timeZone", equalTo("UTC"))
                    .withQueryParam("groupBy", equalTo("tenant,model,day")).atPriority(3), stretch[2]);
        }
        hours(MARCH_FROM, MARCH_11, "", array(byTenant("acme", H100, "50", "10"),
                byTenant("beta", H100, "5", "5")), 5);
        hours(JAN_FROM, JAN_CHANGE, "", JAN_BEFORE_CHANGE, 5);
        hours(JAN_CHANGE, JAN_TO, "", JAN_AFTER_CHANGE, 5);
        hours(WEEK_FROM, WEEK_TO, "", "[]", 8);
        hours(WEEK_FROM, WEEK_TO, "team,model", WEEK_BY_TEAM, 5);
        hours(WEEK_FROM, WEEK_TO, "tenant,team,model", WEEK_BY_TENANT_TEAM, 5);
    }

    /** October 2025 as first told, or after its late facts: by tenant unless the finest grouping is asked for. */
    private static void october(boolean corrected) {
        hours(OCT_FROM, OCT_CHANGE, "", corrected ? OCT_1_BY_TENANT_CORRECTED : OCT_1_BY_TENANT, 5);
        hours(OCT_FROM, OCT_CHANGE, FINE, corrected ? OCT_1_FINE_CORRECTED : OCT_1_FINE, 5);
        hours(OCT_CHANGE, OCT_TO, "", corrected ? OCT_2_BY_TENANT_CORRECTED : OCT_2_BY_TENANT, 5);
        hours(OCT_CHANGE, OCT_TO, FINE, corrected ? OCT_2_FINE_CORRECTED : OCT_2_FINE, 5);
    }

    /** Late facts arrive for October 2025: from now on the ledger tells it with them. */
    static void correctOctober() {
        october(true);
    }

    /** A corrected energy reading for June 2025 arrives: from now on the ledger tells June with it. */
    static void correctJuneEnergy() {
        june(true).forEach(LedgerStandIn::hours);
    }

    /** The GPU-hours calls for windows starting at {@code from}. */
    static int calls(String from) {
        return standIn.count(getRequestedFor(urlPathEqualTo(GPU_HOURS)).withQueryParam("from", equalTo(from)));
    }

    /** The latest GPU-hours call. */
    public static LoggedRequest lastHoursCall() {
        List<LoggedRequest> calls = standIn.calls(getRequestedFor(urlPathEqualTo(GPU_HOURS)));
        return calls.get(calls.size() - 1);
    }

    private static MappingBuilder hours(String from) {
        return get(urlPathEqualTo(GPU_HOURS)).withQueryParam("from", equalTo(from)).atPriority(1);
    }

    /** An answer keyed "from/to/groupBy", as {@link LedgerAnswers#june} keys them. */
    private static void hours(String key, String answer) {
        String[] parts = key.split("/", 3);
        hours(parts[0], parts[1], parts[2], answer, 5);
    }

    /** An answer for a window and grouping ("" for any grouping); of two that match, the lower priority wins. */
    private static void hours(String from, String to, String groupBy, String answer, int priority) {
        MappingBuilder request = window(get(urlPathEqualTo(GPU_HOURS)), from, to);
        hours(groupBy.isEmpty() ? request.atPriority(priority + 1)
                : request.withQueryParam("groupBy", equalTo(groupBy)).atPriority(priority), answer);
    }

    private static void hours(MappingBuilder request, String answer) {
        standIn.answer(request, HOURS.check(answer));
    }

    private static MappingBuilder window(MappingBuilder request, String from, String to) {
        return request.withQueryParam("from", equalTo(from)).withQueryParam("to", equalTo(to));
    }

    /** For a test's own look at the calls. */
    static int count(RequestPatternBuilder requests) {
        return standIn.count(requests);
    }
}
