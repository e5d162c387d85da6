package io.videoworld.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN.md as rules over the production classes of every module (this
 * module sees them all): core depends on nothing of ours, perception not on Flink, the operators
 * and the query service not on each other, and no package cycles anywhere.
 */
class LayeringTest {
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
                    "io.videoworld.operators..", "io.videoworld.query..", "io.videoworld.jobs..", "io.videoworld.testkit..",
                    "io.videoworld.bench.."));
    }

    @Test
    void perceptionHasNoFlink() {
        holds(noClasses().that().resideInAPackage("io.videoworld.perception..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.flink..", "io.videoworld.operators..",
                    "io.videoworld.connectors..", "io.videoworld.query..", "io.videoworld.jobs.."));
    }

    @Test
    void operatorsDoNotReachTheQueryService() {
        holds(noClasses().that().resideInAPackage("io.videoworld.operators..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.query..", "io.videoworld.jobs.."));
    }

    @Test
    void theQueryServiceDoesNotReachTheOperators() {
        holds(noClasses().that().resideInAPackage("io.videoworld.query..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.operators..", "io.videoworld.jobs.."));
    }

    @Test
    void connectorsStayBelowTheOperators() {
        holds(noClasses().that().resideInAPackage("io.videoworld.connectors..")
            .should().dependOnClassesThat().resideInAnyPackage("io.videoworld.operators..", "io.videoworld.query..", "io.videoworld.jobs..",
                    "io.videoworld.perception.."));
    }

    @Test
    void noPackageCycles() {
        holds(slices().matching("io.videoworld.(**)").should().beFreeOfCycles());
    }
}
