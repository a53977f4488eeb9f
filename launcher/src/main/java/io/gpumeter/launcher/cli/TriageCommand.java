package io.gpumeter.launcher.cli;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.gpumeter.launcher.suite.Service;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code triage}: alert-service's triage of a pod, Kueue Workload, PodGroup, node or inference service, in a terminal. */
@Command(name = "triage", sortOptions = false,
        description = {"Prints why a pod, Kueue Workload, PodGroup, node or inference service is unwell: its symptom, "
                + "the layer and the cause (with how sure), how far it reaches, the evidence with its time and the "
                + "command that shows it, what ruled the other causes out, the changes before it, and the runbook's fix.",
                "Name one subject: NAMESPACE/POD, or --workload, --pod-group, --node or --service. A tenant's token "
                        + "triages only its own pods and services, and the answer names no other tenant's."})
public final class TriageCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** --json prints ASCII only: a tenant's string cannot carry a terminal control through it. */
    private static final ObjectMapper PRINTED = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "NAMESPACE/POD", description = "The pod.")
    String pod;

    @Option(names = "--workload", paramLabel = "NAMESPACE/NAME", description = "A Kueue Workload instead of a pod.")
    String workload;

    @Option(names = "--pod-group", paramLabel = "NAMESPACE/NAME", description = "A Volcano or scheduler-plugins "
            + "PodGroup instead of a pod.")
    String podGroup;

    @Option(names = "--node", paramLabel = "NAME", description = "A node instead of a pod.")
    String node;

    @Option(names = "--service", paramLabel = "NAMESPACE/NAME", description = "An inference service instead of a pod.")
    String service;

    @Option(names = "--cluster", paramLabel = "NAME", description = "The cluster (default: the one the services know it in).")
    String cluster;

    @Option(names = "--at", paramLabel = "TIME", converter = Converters.Rfc3339.class,
            description = "The instant to triage, RFC 3339 such as 2026-11-30T12:00:00Z (default: now).")
    Instant at;

    @Option(names = "--json", description = "Print alert-service's answer as JSON (non-ASCII escaped) instead of text.")
    boolean json;

    @Option(names = "--alert", paramLabel = "URL", description = "alert-service (default the local one, "
            + "http://127.0.0.1:" + 8084 + ").")
    URI alert;

    @Option(names = "--token-file", paramLabel = "FILE", description = "A bearer token that may triage (admin, "
            + "operator, reader, or a tenant's for its own). Default: GPUMETER_TOKEN, else a reader's signed with the "
            + "local run's key (--state-dir) if it has one.")
    Path tokenFile;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".gpumeter",
            description = "The local run's state directory, whose keys/ sign a token (default ${DEFAULT-VALUE}).")
    Path stateDir;

    @Mixin
    StandardOptions standard;

    private final Map<String, String> env;

    public TriageCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        URI endpoint = endpoint();
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json").GET();
        ServiceCall.token(tokenFile, env, stateDir, "triage", List.of("reader"))
                .ifPresent(t -> request.header("Authorization", "Bearer " + t));
        HttpResponse<String> answer;
        try {
            answer = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
                    .send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException e) {
            throw new IllegalStateException("alert-service does not answer at " + base() + " (is ./gpumeter up running? "
                    + "--alert names another)");
        } catch (HttpTimeoutException e) {
            throw new IllegalStateException("alert-service at " + base() + " gave no answer in time");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (answer.statusCode() != 200) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(spec.qualifiedName() + ": " + refusal(answer));
            err.flush();
            return 1;
        }
        JsonNode triage = JSON.readTree(answer.body());
        out.print(json ? PRINTED.writerWithDefaultPrettyPrinter().writeValueAsString(triage) + "\n" : TriageView.render(triage));
        out.flush();
        return 0;
    }

    /** alert-service's triage address with the one subject named and the other parameters given. */
    URI endpoint() {
        List<String[]> subjects = new ArrayList<>();
        add(subjects, "pod", "NAMESPACE/POD", pod);
        add(subjects, "workload", "--workload", workload);
        add(subjects, "podGroup", "--pod-group", podGroup);
        add(subjects, "node", "--node", node);
        add(subjects, "service", "--service", service);
        if (subjects.size() != 1) {
            throw new UsageException((subjects.isEmpty() ? "name a subject" : "name one subject only")
                    + ": NAMESPACE/POD, --workload, --pod-group, --node or --service");
        }
        String[] subject = subjects.get(0);
        Map<String, String> query = new LinkedHashMap<>();
        if (subject[0].equals("node")) {
            if (subject[2].contains("/")) {
                throw new UsageException("--node is a node's name, which has no namespace: got '"
                        + TerminalText.safe(subject[2]) + "'");
            }
        } else {
            int slash = subject[2].indexOf('/');
            if (slash <= 0 || slash == subject[2].length() - 1 || subject[2].indexOf('/', slash + 1) >= 0) {
                throw new UsageException(subject[1] + " must be NAMESPACE/NAME, got '" + TerminalText.safe(subject[2]) + "'");
            }
            query.put("namespace", subject[2].substring(0, slash));
            subject[2] = subject[2].substring(slash + 1);
        }
        query.put(subject[0], subject[2]);
        ServiceCall.requireCluster(cluster);
        if (cluster != null) {
            query.put("cluster", cluster);
        }
        if (at != null) {
            query.put("at", at.toString());
        }
        StringBuilder q = new StringBuilder();
        query.forEach((k, v) -> q.append(q.isEmpty() ? "" : "&").append(k).append('=').append(encode(v)));
        return URI.create(base() + "/api/v1/triage?" + q);
    }

    private static void add(List<String[]> subjects, String field, String option, String value) {
        if (value != null && !value.isBlank()) {
            subjects.add(new String[] {field, option, value.strip()});
        }
    }

    private String base() {
        return ServiceCall.base(alert, Service.ALERT);
    }

    /** What alert-service said, in its own words where it gave a problem document; made safe to print. */
    private static String refusal(HttpResponse<String> answer) {
        String detail = null;
        String field = null;
        try {
            JsonNode problem = JSON.readTree(answer.body());
            detail = problem.path("detail").isTextual() ? problem.path("detail").asText() : null;
            field = problem.path("field").isTextual() ? problem.path("field").asText() : null;
        } catch (IOException | RuntimeException e) {
            // not a problem document: the status alone speaks
        }
        return TerminalText.safe(detail == null ? "alert-service refused the triage" : detail)
                + (field == null ? "" : " (" + TerminalText.safe(field) + ")") + " [HTTP " + answer.statusCode() + "]";
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
