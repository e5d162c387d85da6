package io.videoworld.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN.md as rules over the production classes of every module (this
 * module sees them all): core depends on nothing of ours, perception and the engines not on Flink,
 * the operators over the engines and never the other way, the operators and the query service not
 * on each other, no package cycles anywhere, and no two classes of the memory engine calling each
 * other.
 */
class LayeringTest {
    private static final String MEMORY_ENGINE = "io.videoworld.engines.memory";
    /** Classes that use Flink themselves: a Flink-free layer must not reach Flink through one of ours either. */
    private static final DescribedPredicate<JavaClass> FLINK_SHAPED = DescribedPredicate.describe("use Flink",
            c -> c.getDirectDependenciesFromSelf().stream().anyMatch(d -> d.getTargetClass().getPackageName().startsWith("org.apache.flink")));
    private static JavaClasses ours;

    @BeforeAll
    static void importProductionClasses() {
        ours = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests()).importPackages("io.videoworld");
    }

    /** The rule holds over our classes; the failure message is ArchUnit's report of every violation. */
    private static void holds(ArchRule rule) {
        EvaluationResult result = rule.evaluate(ours);
        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
    }

    @Test
    void coreDependsOnNothingOfOurs() {
        holds(noClasses().that().resideInAPackage("io.videoworld.core..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.perception..", "io.videoworld.connectors..",
                    "io.videoworld.engines..", "io.videoworld.operators..", "io.videoworld.query..", "io.videoworld.jobs..",
                    "io.videoworld.testkit..", "io.videoworld.bench.."));
    }

    @Test
    void perceptionHasNoFlink() {
        holds(noClasses().that().resideInAPackage("io.videoworld.perception..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.flink..", "io.videoworld.engines..", "io.videoworld.operators..",
                    "io.videoworld.connectors..", "io.videoworld.query..", "io.videoworld.jobs.."));
    }

    @Test
    void enginesHaveNoFlink() {
        holds(noClasses().that().resideInAPackage("io.videoworld.engines..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.flink..", "io.videoworld.operators..",
                    "io.videoworld.query..", "io.videoworld.jobs..", "io.videoworld.testkit..", "io.videoworld.bench.."));
    }

    @Test
    void enginesReachNoFlinkShapedClassOfOurs() {
        holds(noClasses().that().resideInAPackage("io.videoworld.engines..")
            .should().dependOnClassesThat(FLINK_SHAPED));
    }

    /**
     * The Elasticsearch read side the query service uses (its own module: repositories, searches,
     * their caches; and the clients and index names it shares with the sink) holds no Flink, nor any
     * class of ours that uses it.
     */
    @Test
    void theElasticsearchReadSideHasNoFlink() {
        holds(noClasses().that().resideInAPackage("io.videoworld.connectors.esread..")
            .or().haveNameMatching("io\\.videoworld\\.connectors\\.es\\.(EsClients|EsIndices|IndexSettings)(\\$.*)?")
            .should().dependOnClassesThat().resideInAPackage("org.apache.flink..")
            .orShould().dependOnClassesThat(FLINK_SHAPED));
    }

    /**
     * The query service's code uses no Flink class, nor any class of ours that does. (Frame stores
     * named by URI are still read through Flink's FileSystem, behind FrameStore, as the job writes them.)
     */
    @Test
    void theQueryServiceCodeHasNoFlink() {
        holds(noClasses().that().resideInAPackage("io.videoworld.query..")
            .should().dependOnClassesThat().resideInAPackage("org.apache.flink..")
            .orShould().dependOnClassesThat(FLINK_SHAPED));
    }

    /** Two classes of the memory engine never call each other: its rules layer one way (nested classes count as their outer class). */
    @Test
    void theMemoryEngineCallsOneWay() {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : ours) {
            if (!c.getPackageName().equals(MEMORY_ENGINE)) {
                continue;
            }
            String from = outermost(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass().getBaseComponentType();
                String to = outermost(target);
                if (target.getPackageName().equals(MEMORY_ENGINE) && !to.equals(from)) {
                    uses.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            }
        }
        assertThat(uses).as("the memory engine's classes").isNotEmpty();
        List<String> bothWays = new ArrayList<>();
        uses.forEach((a, targets) -> targets.stream()
                .filter(b -> a.compareTo(b) < 0 && uses.getOrDefault(b, Set.of()).contains(a))
                .forEach(b -> bothWays.add(a + " <-> " + b)));
        assertThat(bothWays).as("classes of the memory engine that call each other").isEmpty();
    }

    private static String outermost(JavaClass c) {
        JavaClass outer = c;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer.getName();
    }

    @Test
    void theEnginesDoNotReachTheOperators() {
        holds(noClasses().that().resideInAPackage("io.videoworld.engines..")
            .should().dependOnClassesThat().resideInAPackage("io.videoworld.operators.."));
    }

    @Test
    void operatorsDoNotReachTheQueryService() {
        holds(noClasses().that().resideInAPackage("io.videoworld.operators..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.query..", "io.videoworld.jobs.."));
    }

    @Test
    void theQueryServiceDoesNotReachTheOperators() {
        holds(noClasses().that().resideInAPackage("io.videoworld.query..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.engines..", "io.videoworld.operators..", "io.videoworld.jobs.."));
    }

    /**
     * Flink's streaming API lives only in the job side's connectors ({@code connectors.flink}): media
     * decoding, model-service clients, the producer and what both sides share use none of it (the
     * frame store reaches Flink's FileSystem, not its streaming API).
     */
    @Test
    void onlyTheJobSideConnectorsUseFlinkStreaming() {
        holds(noClasses().that().resideInAnyPackage("io.videoworld.media..", "io.videoworld.clients..", "io.videoworld.producer..",
                "io.videoworld.connectors.es..", "io.videoworld.connectors.kafka..", "io.videoworld.connectors.framestore..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.flink.streaming..", "org.apache.flink.api.connector..",
                    "org.apache.flink.connector..", "io.videoworld.connectors.flink.."));
    }

    @Test
    void theQueryServiceUsesNeitherTheJobSideConnectorsNorTheProducer() {
        holds(noClasses().that().resideInAPackage("io.videoworld.query..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.connectors.flink..", "io.videoworld.producer.."));
    }

    @Test
    void mediaAndClientsStayBelowEverythingButCore() {
        holds(noClasses().that().resideInAnyPackage("io.videoworld.media..", "io.videoworld.clients..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.connectors..", "io.videoworld.producer..", "io.videoworld.perception..",
                    "io.videoworld.engines..", "io.videoworld.operators..", "io.videoworld.query..", "io.videoworld.jobs.."));
    }

    @Test
    void connectorsStayBelowTheOperators() {
        holds(noClasses().that().resideInAPackage("io.videoworld.connectors..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.engines..", "io.videoworld.operators..", "io.videoworld.query..",
                    "io.videoworld.jobs..", "io.videoworld.perception.."));
    }

    @Test
    void noPackageCycles() {
        holds(slices().matching("io.videoworld.(**)").should().beFreeOfCycles());
    }
}
