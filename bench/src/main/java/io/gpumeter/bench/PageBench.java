package io.gpumeter.bench;

import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long each console page takes to load on the demo fleet ({@code up --demo}): the time from the request to the
 * last byte of the page, which is when the console has asked the services for every figure on it (the charts are
 * then drawn in the browser from the page itself). Each page is loaded a few times in a row; p50 and max are
 * printed, and a page over the 1 s target is marked.
 * Usage: {@code bench/run pages [loads]} (default 5 loads a page).
 */
public final class PageBench {

    private static final Duration TARGET = Duration.ofSeconds(1);

    public static void main(String[] args) throws Exception {
        int loads = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path root = Path.of("").toAbsolutePath();
        Path state = root.resolve("bench/target/pages-run");
        FleetSimulator simulator = new FleetSimulator(FleetSimulator.DEFAULT_SEED);
        DemoSignals signals = new DemoSignals(simulator.plan());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Demo demo = new Demo(simulator, new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (SimulatedApiServer api = SimulatedApiServer.start()) {
            var builder = Suite.builder(root).withConsole().freePorts().embeddedDatabase(state.resolve("pgdata"))
                    .freshDatabase(true).stateDirectory(state).logDirectory(state.resolve("logs"))
                    .readyTimeout(Duration.ofMinutes(3)).env(Service.ALERT, "GPUMETER_ALERT_ALERTMANAGER_ENABLED", "false");
            demo.configure(builder, api);
            try (Suite suite = builder.build().start()) {
                System.out.println("feeding the demo fleet...");
                demo.run(suite, api);
                HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                        .followRedirects(HttpClient.Redirect.NEVER).build();
                String cookie = signIn(http, suite.consoleSigninUrl().orElseThrow());
                String base = suite.url(Service.CONSOLE).toString().replaceAll("/$", "");
                System.out.printf("%-10s %8s %8s  (%d loads each, after one warm-up; target < %d ms)%n", "page", "p50 ms",
                        "max ms", loads, TARGET.toMillis());
                int over = 0;
                for (Map.Entry<String, String> page : pages(signals).entrySet()) {
                    HttpRequest request = HttpRequest.newBuilder(URI.create(base + page.getValue())).header("Cookie", cookie)
                            .timeout(Duration.ofSeconds(60)).GET().build();
                    load(http, request, page.getKey());
                    long[] millis = new long[loads];
                    for (int i = 0; i < loads; i++) {
                        long t0 = System.nanoTime();
                        load(http, request, page.getKey());
                        millis[i] = Duration.ofNanos(System.nanoTime() - t0).toMillis();
                    }
                    Arrays.sort(millis);
                    long p50 = millis[(loads - 1) / 2];
                    long max = millis[loads - 1];
                    boolean slow = max > TARGET.toMillis();
                    over += slow ? 1 : 0;
                    System.out.printf("%-10s %8d %8d  %s%n", page.getKey(), p50, max, slow ? "over 1 s" : "");
                }
                System.out.println(over == 0 ? "every page loads in under 1 s" : over + " page(s) took over 1 s at least once");
            }
        }
    }

    /** The pages as a person opens them from the menu, over the demo's data. */
    static Map<String, String> pages(DemoSignals signals) {
        LocalDate today = LocalDate.ofInstant(signals.usageTo(), ZoneOffset.UTC);
        String days = "from=" + today.minusDays(6) + "&to=" + today.plusDays(1);
        String month = YearMonth.from(signals.usageTo().atZone(ZoneOffset.UTC)).toString();
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("fleet", "/fleet?at=" + Rfc3339.format(signals.usageTo().minus(Duration.ofMinutes(20))));
        pages.put("card", "/fleet/card?uuid=" + signals.sharedCard() + "&at=" + Rfc3339.format(signals.usageTo().minus(Duration.ofMinutes(20))));
        pages.put("hours", "/hours?month=" + month);
        pages.put("budgets", "/budgets?month=" + month);
        pages.put("slos", "/slos?window=6h&to=" + Rfc3339.format(signals.usageTo()));
        pages.put("idle", "/idle?" + days + "&groupBy=tenant");
        pages.put("queues", "/queues?" + days + "&groupBy=clusterQueue");
        pages.put("failures", "/failures?" + days + "&groupBy=cause");
        pages.put("jitter", "/jitter?window=6h&to=" + Rfc3339.format(signals.usageTo()));
        pages.put("capacity", "/capacity");
        pages.put("alerts", "/alerts?state=all");
        return pages;
    }

    private static void load(HttpClient http, HttpRequest request, String page) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(page + " answered " + response.statusCode());
        }
        if (response.body().contains("class=\"message error\"")) {
            System.out.println("  " + page + " shows an error: the figures are missing, the time says little");
        }
    }

    /** The session cookie the one-time link sets. */
    private static String signIn(HttpClient http, URI link) throws Exception {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(link).GET().build(), HttpResponse.BodyHandlers.discarding());
        List<String> cookies = new ArrayList<>();
        for (String header : response.headers().allValues("set-cookie")) {
            cookies.add(header.split(";", 2)[0]);
        }
        if (cookies.isEmpty()) {
            throw new IllegalStateException("the one-time link set no session (HTTP " + response.statusCode() + ")");
        }
        return String.join("; ", cookies);
    }
}
