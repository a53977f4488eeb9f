package io.gpumeter.ledger.demand.domain;

import io.gpumeter.common.fact.Owner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shipped rules against owner and label combinations, the API group deciding where the kind alone cannot. */
class WorkloadClassifierTest {

    static final WorkloadClassifier SHIPPED = new WorkloadClassifier(DefaultClassRules.load());

    /** {@code a=1;b=2} as a map; blank is none. */
    static Map<String, String> labels(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text != null && !text.isBlank()) {
            for (String pair : text.split(";")) {
                int eq = pair.indexOf('=');
                out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # case                        | kind            | apiVersion                          | name            | labels                                                                       | class     | rule                                              | service
            deployment                    | Deployment      | apps/v1                             | llm-chat        | -                                                                            | inference | owner apps/Deployment                             | llm-chat
            statefulset                   | StatefulSet     | apps/v1                             | vllm            | -                                                                            | inference | owner apps/StatefulSet                            | vllm
            kserve on its deployment      | Deployment      | apps/v1                             | llm-predictor   | serving.kserve.io/inferenceservice=llm                                       | inference | owner serving.kserve.io/InferenceService          | llm
            leaderworkerset               | StatefulSet     | apps/v1                             | big-0           | leaderworkerset.sigs.k8s.io/name=big                                         | inference | owner leaderworkerset.x-k8s.io/LeaderWorkerSet    | big
            rayservice                    | RayCluster      | ray.io/v1                           | svc-raycluster  | ray.io/originated-from-crd=RayService;ray.io/originated-from-cr-name=svc     | inference | owner ray.io/RayService                           | svc
            rayjob                        | RayCluster      | ray.io/v1                           | job-raycluster  | ray.io/originated-from-crd=RayJob;ray.io/originated-from-cr-name=tune        | training  | owner ray.io/RayJob                               | -
            bare raycluster               | RayCluster      | ray.io/v1                           | adhoc           | -                                                                            | other     | none                                              | -
            pytorchjob                    | PyTorchJob      | kubeflow.org/v1                     | bert            | -                                                                            | training  | owner kubeflow.org/PyTorchJob                     | -
            tfjob                         | TFJob           | kubeflow.org/v1                     | tf              | -                                                                            | training  | owner kubeflow.org/TFJob                          | -
            mpijob                        | MPIJob          | kubeflow.org/v2beta1                | mpi             | -                                                                            | training  | owner kubeflow.org/MPIJob                         | -
            jobset on its job             | Job             | batch/v1                            | js-workers-0    | jobset.sigs.k8s.io/jobset-name=js                                            | training  | owner jobset.x-k8s.io/JobSet                      | -
            trainjob through its jobset   | Job             | batch/v1                            | tj-node-0       | jobset.sigs.k8s.io/jobset-name=tj;trainer.kubeflow.org/trainjob-ancestor-step=trainer | training | owner trainer.kubeflow.org/TrainJob     | -
            volcano job                   | Job             | batch.volcano.sh/v1alpha1           | mpi             | -                                                                            | training  | owner batch.volcano.sh/Job                        | -
            batch job                     | Job             | batch/v1                            | etl             | -                                                                            | batch     | owner batch/Job                                   | -
            cronjob                       | CronJob         | batch/v1                            | nightly         | -                                                                            | batch     | owner batch/CronJob                               | -
            kubeflow notebook             | StatefulSet     | apps/v1                             | nb              | notebook-name=nb                                                             | notebook  | owner kubeflow.org/Notebook                       | -
            jupyterhub single-user        | -               | -                                   | -               | component=singleuser-server;app=jupyterhub                                   | notebook  | label component=singleuser-server                 | -
            jupyterhub newer labels       | -               | -                                   | -               | app.kubernetes.io/component=singleuser-server                                | notebook  | label app.kubernetes.io/component=singleuser-server | -
            jupyterhub's hub is not one   | -               | -                                   | -               | component=hub                                                                | other     | none                                              | -
            the owner wins over labels    | Job             | batch/v1                            | etl             | component=singleuser-server                                                  | batch     | owner batch/Job                                   | -
            a jobset label on volcano's   | Job             | batch.volcano.sh/v1alpha1           | mpi             | jobset.sigs.k8s.io/jobset-name=js                                            | training  | owner batch.volcano.sh/Job                        | -
            unknown resource              | Widget          | example.com/v1                      | w               | -                                                                            | other     | none                                              | -
            owned by a pod                | Pod             | v1                                  | p               | -                                                                            | other     | none                                              | -
            no owner no labels            | -               | -                                   | -               | -                                                                            | other     | none                                              | -
            blank kind                    | ' '             | apps/v1                             | x               | -                                                                            | other     | none                                              | -
            no group, kind alone is clear | Deployment      | -                                   | llm-chat        | -                                                                            | inference | owner Deployment, API group not recorded          | llm-chat
            no group, a bare job is not   | Job             | -                                   | etl             | -                                                                            | other     | none                                              | -
            no group, its jobset says     | Job             | -                                   | js-workers-0    | jobset.sigs.k8s.io/jobset-name=js                                            | training  | owner jobset.x-k8s.io/JobSet                      | -
            blank apiVersion              | Job             | ' '                                 | etl             | -                                                                            | other     | none                                              | -
            a blank label value names no parent | Deployment | apps/v1                           | d               | serving.kserve.io/inferenceservice=                                          | inference | owner apps/Deployment                             | d
            """)
    void classifies(String name, String kind, String apiVersion, String ownerName, String labels, String expectedClass,
                    String expectedRule, String expectedService) {
        Owner owner = kind == null ? null : new Owner(kind, ownerName, apiVersion);
        WorkloadClassifier.Classification c = SHIPPED.classify("ns1", "pod-0", owner, labels(labels));
        assertEquals(expectedClass, c.workloadClass().label(), name);
        assertEquals(expectedRule, c.rule(), name);
        if (expectedService == null) {
            assertNull(c.service(), name);
        } else {
            assertEquals(new WorkloadClassifier.Service("ns1", expectedService), c.service(), name);
        }
    }

    @Test
    void aLabelClassifiedServiceIsItsOutermostOwnerElseThePod() {
        List<ClassRule> rules = new ArrayList<>(DefaultClassRules.load());
        rules.add(ClassRule.parse(null, "app.kubernetes.io/component=inference", "inference"));
        WorkloadClassifier c = new WorkloadClassifier(rules);
        assertEquals(new WorkloadClassifier.Service("ns1", "pod-0"),
                c.classify("ns1", "pod-0", null, labels("app.kubernetes.io/component=inference")).service());
        assertEquals(new WorkloadClassifier.Service("ns1", "w"), c.classify("ns1", "pod-0",
                new Owner("Widget", "w", "example.com/v1"), labels("app.kubernetes.io/component=inference")).service());
    }

    @Test
    void aConfiguredRuleNamesAnyOwnerAndMayAskForALabelToo() {
        List<ClassRule> rules = new ArrayList<>();
        rules.add(ClassRule.parse("example.com/Widget", "tier=train", "training"));
        rules.add(ClassRule.parse("example.com/Widget", null, "inference"));
        WorkloadClassifier c = new WorkloadClassifier(rules);
        Owner widget = new Owner("Widget", "w", "example.com/v1");
        assertEquals("owner example.com/Widget, label tier=train", c.classify("n", "p", widget, labels("tier=train")).rule());
        assertEquals(WorkloadClass.TRAINING, c.classify("n", "p", widget, labels("tier=train")).workloadClass());
        assertEquals(WorkloadClass.INFERENCE, c.classify("n", "p", widget, labels("tier=serve")).workloadClass());
        // the same kind in another group is another owner
        assertEquals(WorkloadClass.OTHER, c.classify("n", "p", new Owner("Widget", "w", "other.io/v1"), Map.of()).workloadClass());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # case                   | owner                 | label       | class     | the message starts with
            neither owner nor label  | -                     | -           | batch     | owner:
            kind without a group     | Deployment            | -           | inference | owner:
            group without a kind     | apps/                 | -           | inference | owner:
            two slashes              | apps/v1/Deployment    | -           | inference | owner:
            a blank in the owner     | apps/ Deployment      | -           | inference | owner:
            label without a key      | -                     | =x          | notebook  | label:
            unknown class            | apps/Deployment       | -           | serving   | class:
            class in capitals        | apps/Deployment       | -           | Inference | class:
            missing class            | apps/Deployment       | -           | -         | class:
            """)
    void aBadRuleIsRefusedNamingItsPart(String name, String owner, String label, String workloadClass, String prefix) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClassRule.parse(owner, label, workloadClass), name);
        assertTrue(e.getMessage().startsWith(prefix), name + ": " + e.getMessage());
    }

    @Test
    void theShippedRulesParse() {
        List<ClassRule> rules = DefaultClassRules.load();
        assertEquals(20, rules.size());
        assertEquals(WorkloadClass.TRAINING, rules.get(13).workloadClass());
        assertEquals("batch.volcano.sh", rules.get(13).ownerGroup());
    }
}
