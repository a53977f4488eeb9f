package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static io.gpumeter.launcher.simulator.Tenancy.ACME_INFERENCE;
import static io.gpumeter.launcher.simulator.Tenancy.GLOBEX_LLM;
import static io.gpumeter.launcher.simulator.Tenancy.INITECH_BATCH;

/** Makes new pod stories named, owned and labelled as their controllers would, unique per namespace. */
final class StoryFactory {

    /** Deployments cut a new ReplicaSet (a rollout) this often. */
    private static final Duration REVISION_EVERY = Duration.ofDays(3);
    private static final Map<Template, List<String>> NAMES = Map.of(
            Template.TRAINING, List.of("train-resnet", "finetune-llama", "pretrain-vit", "sweep-lr"),
            Template.EVAL, List.of("eval-smoke", "bench-quick"),
            Template.MIG_BATCH, List.of("embed-batch", "transcode", "feature-extract"));
    private static final Map<String, List<String>> DEPLOYMENTS = Map.of(
            ACME_INFERENCE, List.of("llm-gateway", "embedder", "reranker"),
            GLOBEX_LLM, List.of("chat-api", "summarizer"),
            INITECH_BATCH, List.of("scorer"));
    private static final Map<String, List<String>> MIG_DEPLOYMENTS = Map.of(
            GLOBEX_LLM, List.of("asr-small", "ocr"),
            ACME_INFERENCE, List.of("classifier"));
    private static final List<String> USERS = List.of("alice", "bob", "chen", "dmitri", "eva");

    private final long seed;
    private final SplittableRandom random;
    private final Ids ids;
    private final SimulationWindow window;
    private final Map<String, Set<String>> names = new HashMap<>();

    StoryFactory(long seed, SplittableRandom random, SimulationWindow window) {
        this.seed = seed;
        this.random = random;
        this.ids = new Ids(random.split());
        this.window = window;
    }

    /** A new pod of {@code template} in {@code namespace}, named and owned as its controller would. */
    PodStory story(Template template, String namespace, Instant createdAt) {
        PodStory s = new PodStory();
        s.template = template;
        s.namespace = namespace;
        s.createdAt = createdAt;
        s.uid = ids.uid();
        s.containerId = ids.containerId();
        s.pullSeconds = random.nextInt(2, 41);
        s.podHost = random.nextInt(2, 255);
        String base;
        if ("Deployment".equals(template.controller)) {
            List<String> choices = (template == Template.MIG_SERVING ? MIG_DEPLOYMENTS : DEPLOYMENTS).get(namespace);
            String deployment = choices.get(random.nextInt(choices.size()));
            int revision = (int) (Duration.between(window.start(), createdAt).toSeconds() / REVISION_EVERY.toSeconds());
            String replicaSet = deployment + "-" + Ids.templateHash(seed, namespace + "/" + deployment, revision);
            s.owner = new PodOwner("ReplicaSet", replicaSet,
                    Ids.replicaSetUid(seed, namespace + "/" + deployment, revision), deployment);
            s.project = deployment;
            base = replicaSet;
        } else if ("Job".equals(template.controller)) {
            List<String> choices = NAMES.get(template);
            String job = choices.get(random.nextInt(choices.size())) + "-" + random.nextInt(10000, 100000);
            s.owner = new PodOwner("Job", job, ids.uid(), null);
            s.project = job.substring(0, job.lastIndexOf('-'));
            base = job;
        } else {
            String user = USERS.get(random.nextInt(USERS.size()));
            s.project = "notebooks";
            base = "nb-" + user;
        }
        Set<String> taken = names.computeIfAbsent(namespace, n -> new HashSet<>());
        do {
            s.name = base + "-" + ids.suffix(5);
        } while (!taken.add(s.name));
        return s;
    }

    PodStory hami(PodStory s, long gpumem, int gpucores) {
        s.gpumem = gpumem;
        s.gpucores = gpucores;
        s.coresDeclared = gpucores > 0 || random.nextBoolean();
        return s;
    }
}
