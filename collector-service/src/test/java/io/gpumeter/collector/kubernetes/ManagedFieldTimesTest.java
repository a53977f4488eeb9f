package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ManagedFieldTimesTest {

    @Test
    void eachLabelTakesTheTimeOfTheEntryThatOwnsIt() {
        Namespace ns = Serialization.unmarshal("""
                kind: Namespace
                metadata:
                  name: ml
                  resourceVersion: '77'
                  labels: {gpumeter.io/tenant: globex, gpumeter.io/team: vision, kubernetes.io/metadata.name: ml}
                  managedFields:
                  - manager: kube-apiserver
                    operation: Update
                    time: '2026-04-01T08:00:00Z'
                    fieldsType: FieldsV1
                    fieldsV1: {f:metadata: {f:labels: {.: {}, f:kubernetes.io/metadata.name: {}}}}
                  - manager: kubectl-create
                    operation: Update
                    time: '2026-04-01T08:00:00Z'
                    fieldsType: FieldsV1
                    fieldsV1: {f:metadata: {f:labels: {f:gpumeter.io/team: {}}}}
                  - manager: kubectl-label
                    operation: Update
                    time: '2026-05-15T12:30:00Z'
                    fieldsType: FieldsV1
                    fieldsV1: {f:metadata: {f:labels: {f:gpumeter.io/tenant: {}}}}
                  - manager: something
                    operation: Update
                    time: '2026-05-20T00:00:00Z'
                    fieldsType: FieldsV1
                    fieldsV1: {f:spec: {f:finalizers: {}}}
                """, Namespace.class);
        var fact = NamespaceTranslator.translate(ns, io.gpumeter.common.fact.WatchEventType.MODIFIED, Instant.parse("2026-06-01T00:00:00Z"));
        assertEquals(Instant.parse("2026-05-15T12:30:00Z"), fact.labelTimes().get("gpumeter.io/tenant"));
        assertEquals(Instant.parse("2026-04-01T08:00:00Z"), fact.labelTimes().get("gpumeter.io/team"));
        assertEquals(Map.of("gpumeter.io/tenant", "globex", "gpumeter.io/team", "vision", "kubernetes.io/metadata.name", "ml"), fact.labels());
    }

    @Test
    void aBadEntryTimeSkipsTheObject() {
        Namespace ns = Serialization.unmarshal("""
                kind: Namespace
                metadata:
                  name: ml
                  resourceVersion: '1'
                  managedFields:
                  - {manager: m, operation: Update, time: 'noon', fieldsType: FieldsV1, fieldsV1: {f:metadata: {f:labels: {f:a: {}}}}}
                """, Namespace.class);
        assertThrows(Skip.class, () -> NamespaceTranslator.translate(ns, io.gpumeter.common.fact.WatchEventType.ADDED, Instant.now()));
    }
}
