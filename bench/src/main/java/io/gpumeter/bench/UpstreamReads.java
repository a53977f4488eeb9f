package io.gpumeter.bench;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reads behind the Capacity and Hours pages at scale, each timed on its own with the admin's token (p50, p95,
 * max of a few calls after one warm-up): slo-service's plan and the ledger's supply and demand it asks for (the
 * 56 days before today, as the plan's default history), billing's daily series and the ledger's day-bucketed
 * GPU-hours it asks for. A page's time is then its reads' times as the page waits for them.
 */
final class UpstreamReads {

    private UpstreamReads() {
    }

    static void time(Suite suite, HttpClient http, int loads) throws Exception {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String window = "from=" + today.minusDays(56) + "T00:00:00Z&to=" + today + "T00:00:00Z&timeZone=UTC";
        String ledger = suite.url(Service.LEDGER).toString().replaceAll("/$", "");
        String billing = suite.url(Service.BILLING).toString().replaceAll("/$", "");
        Map<String, String> reads = new LinkedHashMap<>();
        reads.put("capacity plan", suite.url(Service.SLO).toString().replaceAll("/$", "") + "/api/v1/capacity/plan?horizon=30d");
        reads.put("  ledger supply", ledger + "/api/v1/capacity/supply?" + window);
        reads.put("  ledger demand", ledger + "/api/v1/demand?" + window);
        reads.put("billing series", billing + "/api/v1/reports/series?month=2026-05&bucket=day&groupBy=tenant");
        reads.put("  ledger by day", ledger + "/api/v1/gpu-hours?from=2026-05-01T00:00:00Z&to=2026-06-01T00:00:00Z"
                + "&groupBy=tenant,model,day&timeZone=UTC");
        System.out.printf("%-18s %8s %8s %8s %9s%n", "read", "p50 ms", "p95 ms", "max ms", "kB");
        for (Map.Entry<String, String> read : reads.entrySet()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(read.getValue()))
                    .header("Authorization", "Bearer " + suite.adminToken()).timeout(Duration.ofSeconds(60)).GET().build();
            int size;
            try {
                size = send(http, request, read.getKey()).length();
            } catch (java.net.http.HttpTimeoutException e) {
                System.out.printf("%-18s no answer within 60 s%n", read.getKey());
                continue;
            }
            long[] millis = new long[loads];
            for (int i = 0; i < loads; i++) {
                long t0 = System.nanoTime();
                send(http, request, read.getKey());
                millis[i] = Duration.ofNanos(System.nanoTime() - t0).toMillis();
            }
            Arrays.sort(millis);
            System.out.printf("%-18s %8d %8d %8d %9.0f%n", read.getKey(), millis[(loads - 1) / 2],
                    millis[(int) Math.ceil(0.95 * loads) - 1], millis[loads - 1], size / 1024.0);
        }
    }

    private static String send(HttpClient http, HttpRequest request, String read) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(read + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }
}
