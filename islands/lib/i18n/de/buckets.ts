/** German texts for the buckets list and a bucket's pages: summary, events, replication, lifecycle, access, prefix rules. */
import type { buckets as english } from "../en/buckets.ts";
import type { Translation } from "../types.ts";

export const buckets: Translation<typeof english> = {
  // The list (/buckets)
  "buckets.list.title": "Buckets",
  "buckets.list.filter": "Buckets filtern",
  "buckets.list.setReplication": "Replikation einrichten",
  "buckets.list.createBucket": "Bucket erstellen",
  "buckets.list.creationDate": "Erstellungsdatum",
  "buckets.list.refused": "Sie haben keine Berechtigung, Buckets aufzulisten.",

  // The tables' names, as "There are no {entity} yet." reads them
  "buckets.entity.buckets": "Buckets",
  "buckets.entity.events": "Ereignisse",
  "buckets.entity.replicationRules": "Replikationsregeln",
  "buckets.entity.lifecycleRules": "Lebenszyklusregeln",
  "buckets.entity.policies": "Richtlinien",
  "buckets.entity.users": "Benutzer",
  "buckets.entity.accessRules": "Zugriffsregeln",

  // A bucket's page: header, menu, sections
  "buckets.detail.breadcrumb": "Navigationspfad",
  "buckets.detail.bucket": "Bucket",
  "buckets.detail.bucketNamed": "Bucket {bucket}",
  "buckets.detail.notFound": "Der Bucket {bucket} ist nicht vorhanden.",
  "buckets.detail.pageTitle": "{bucket} | Buckets",
  "buckets.detail.sections": "Bereiche des Buckets",
  "buckets.detail.access": "Zugriff: {access}",
  "buckets.section.summary": "Zusammenfassung",
  "buckets.section.events": "Ereignisse",
  "buckets.section.replication": "Replikation",
  "buckets.section.lifecycle": "Lebenszyklus",
  "buckets.section.access": "Zugriffsprüfung",
  "buckets.section.prefix": "Zugriffsregeln",
  "buckets.part.notificationTargets": "Benachrichtigungsziele",
  "buckets.part.replicationRules": "Replikationsregeln",
  "buckets.part.replicationStatus": "Replikationsstatus",
  "buckets.part.lifecycleRules": "Lebenszyklusregeln",
  "buckets.part.tiers": "Speicherstufen",
  "buckets.part.policies": "Richtlinien",
  "buckets.part.users": "Benutzer",

  // Access levels (the bucket's policy preset)
  "buckets.accessLevel.private": "Privat",
  "buckets.accessLevel.public": "Öffentlich",
  "buckets.accessLevel.custom": "Benutzerdefiniert",

  // Summary
  "buckets.summary.card.access": "Zugriffsrichtlinie",
  "buckets.summary.card.encryption": "Verschlüsselung",
  "buckets.summary.card.usage": "Gemeldete Nutzung",
  "buckets.summary.card.replication": "Replikation",
  "buckets.summary.card.locking": "Objektsperre",
  "buckets.summary.card.versioning": "Versionierung",
  "buckets.summary.card.quota": "Kontingent",
  "buckets.summary.card.retention": "Aufbewahrung",
  "buckets.summary.loading": "Wird geladen",
  "buckets.summary.encryptionEnabled": "Aktiviert ({type})",
  "buckets.summary.quotaHard": "Festes Kontingent: {amount} {unit}",
  "buckets.summary.quotaFifo": "FIFO-Kontingent: {amount} {unit}",
  "buckets.summary.retentionStatus": "Status:",
  "buckets.summary.retentionMode": "Modus: {mode}",
  "buckets.summary.retentionValidity": "Gültigkeit: {validity}",
  "buckets.summary.days": { one: "{count} Tag", other: "{count} Tage" },
  "buckets.summary.years": { one: "{count} Jahr", other: "{count} Jahre" },

  // Retention (Create Bucket and the Summary's dialog)
  "buckets.retention.compliance": "Compliance",
  "buckets.retention.governance": "Governance",
  "buckets.retention.unitDays": "Tage",
  "buckets.retention.unitYears": "Jahre",
  "buckets.retention.mode": "Aufbewahrungsmodus",
  "buckets.retention.validity": "Aufbewahrungsdauer",
  "buckets.retention.validityTooSmall": "Die Dauer muss mindestens 1 betragen.",

  // Create Bucket
  "buckets.create.title": "Bucket erstellen",
  "buckets.create.name": "Bucket-Name",
  "buckets.create.versioning": "Versionierung",
  "buckets.create.objectLocking": "Objektsperre",
  "buckets.create.quota": "Kontingent",
  "buckets.create.retention": "Aufbewahrung",
  "buckets.create.nonErasure":
    "Einige dieser Funktionen sind deaktiviert, da der Server nicht im Erasure-Coding-Modus läuft.",
  "buckets.create.plainServer":
    "Dieser Server ist kein MinIO-Server: Kontingent und Aufbewahrung erfordern MinIO.",
  "buckets.create.plainServerLacks":
    "Dieser Server ist kein MinIO-Server: Kontingent und Aufbewahrung erfordern MinIO, und {features} wird nicht unterstützt.",
  "buckets.create.or": " oder ",
  "buckets.create.lockingNeedsVersioning":
    "Die Objektsperre erfordert Versionierung; sie bleibt daher aktiviert, solange die Objektsperre aktiv ist.",
  "buckets.create.created": "Bucket {bucket} wurde erstellt",
  "buckets.create.exists": "Ein Bucket namens {bucket} ist bereits vorhanden.",
  "buckets.create.notCreated": "Der Bucket wurde nicht erstellt: {step} ist fehlgeschlagen",
  "buckets.create.stepVersioning": "das Aktivieren der Versionierung",
  "buckets.create.stepQuota": "das Festlegen des Kontingents",
  "buckets.create.stepRetention": "das Festlegen der Aufbewahrung",

  // Bucket name rules
  "buckets.name.length": "Der Bucket-Name muss 3 bis 63 Zeichen lang sein.",
  "buckets.name.characters": "Der Bucket-Name enthält ungültige Zeichen.",
  "buckets.name.ipAddress": "Der Bucket-Name darf nicht wie eine IP-Adresse aufgebaut sein.",
  "buckets.name.reserved": "Der Bucket-Name minio ist reserviert.",
  "buckets.name.awsReserved": 'Bucket-Namen mit "{affix}" sind von AWS reserviert.',

  // Delete Bucket
  "buckets.delete.title": "Bucket löschen",
  "buckets.delete.confirm":
    "Möchten Sie den Bucket {bucket} wirklich löschen? Ein Bucket kann nur gelöscht werden, wenn er leer ist.",
  "buckets.delete.deleted": "Bucket {bucket} wurde gelöscht",
  "buckets.delete.missing": "Der Bucket {bucket} ist nicht vorhanden.",

  // Summary dialogs
  "buckets.accessPolicy.title": "Zugriffsrichtlinie ändern",
  "buckets.accessPolicy.custom":
    "Der Bucket hat eine benutzerdefinierte Richtlinie; eine Vorlage auszuwählen ersetzt sie.",
  "buckets.accessPolicy.label": "Zugriffsrichtlinie",
  "buckets.accessPolicy.customRefused":
    "Der Zugriff CUSTOM ergibt sich aus einer benutzerdefinierten Bucket-Richtlinie; wählen Sie PRIVATE oder PUBLIC, oder bearbeiten Sie die Zugriffsregeln.",
  "buckets.encryption.title": "Bucket-Verschlüsselung aktivieren",
  "buckets.encryption.type": "Verschlüsselungstyp",
  "buckets.encryption.kmsKey": "KMS-Schlüssel-ID",
  "buckets.encryption.noKms":
    "Auf dem Speicherserver ist kein KMS konfiguriert, daher kann er Objekte nicht mit SSE-S3 oder SSE-KMS verschlüsseln. Konfigurieren Sie ein KMS auf dem Server (zum Beispiel MINIO_KMS_SECRET_KEY) und versuchen Sie es erneut.",
  "buckets.encryption.kmsKeyRequired": "SSE-KMS erfordert die KMS-Schlüssel-ID.",
  "buckets.encryption.unknownKey": 'Das KMS des Speicherservers hat keinen Schlüssel "{key}".',
  "buckets.versioning.title": "Versionierung bearbeiten",
  "buckets.versioning.enable": "Aktivieren",
  "buckets.versioning.disable": "Deaktivieren",
  "buckets.versioning.confirm": "Möchten Sie die Versionierung für diesen Bucket wirklich {action}?",
  "buckets.versioning.enableWord": "aktivieren",
  "buckets.versioning.disableWord": "deaktivieren",
  "buckets.versioning.warning": "Dateiversionen werden nicht automatisch gelöscht.",
  "buckets.quota.title": "Bucket-Kontingent aktivieren",
  "buckets.quota.type": "Kontingenttyp",
  "buckets.quota.hard": "Fest",
  "buckets.quota.fifo": "FIFO",
  "buckets.quota.tooSmall": "Das Kontingent muss größer als null sein.",
  "buckets.quota.tooLarge": "Das Kontingent muss kleiner als 8 PiB sein.",
  "buckets.retentionDialog.title": "Aufbewahrung konfigurieren",
  "buckets.retentionDialog.none": "Der Bucket hat keine Standardaufbewahrung.",
  "buckets.retentionDialog.needsLocking":
    "Die Aufbewahrung erfordert einen Bucket, der mit Objektsperre erstellt wurde.",

  // Events
  "buckets.events.subscribe": "Ereignis abonnieren",
  "buckets.events.subscribeTitle": "Ereignis abonnieren",
  "buckets.events.subscribed": "Ereignis abonniert",
  "buckets.events.noTargets":
    "Der Server hat noch keine Benachrichtigungsziele. Fügen Sie unter Einstellungen eines hinzu und starten Sie den Server anschließend neu.",
  "buckets.events.arn": "ARN",
  "buckets.events.select": "Ereignis auswählen",
  "buckets.events.put": "PUT – Objekt hochgeladen",
  "buckets.events.get": "GET – Objekt abgerufen",
  "buckets.events.delete": "DELETE – Objekt gelöscht",
  "buckets.events.prefix": "Präfix",
  "buckets.events.suffix": "Suffix",
  "buckets.events.sqs": "SQS",
  "buckets.events.events": "Ereignisse",
  "buckets.events.deleteTitle": "Ereignis löschen",
  "buckets.events.deleteConfirm": "Möchten Sie dieses Ereignisabonnement wirklich löschen?",
  "buckets.events.noSuch": "Dieses Ereignisabonnement ist nicht vorhanden.",

  // Replication
  "buckets.replication.add": "Replikationsregel hinzufügen",
  "buckets.replication.setTitle": "Bucket-Replikation einrichten",
  "buckets.replication.targetBucket": "Ziel-Bucket",
  "buckets.replication.deleteMarkers": "Löschmarkierungen replizieren",
  "buckets.replication.deletes": "Löschvorgänge replizieren",
  "buckets.replication.metadata": "Metadaten replizieren",
  "buckets.replication.noChanges": "Es wurden keine Änderungen übernommen.",
  "buckets.replication.statusLabel": "Replikationsstatus",
  "buckets.replication.priority": "Priorität",
  "buckets.replication.destination": "Ziel",
  "buckets.replication.tags": "Tags",
  "buckets.replication.deleteTitle": "Replikationsregel löschen",
  "buckets.replication.deleteConfirm":
    "Möchten Sie die Replikationsregel {rule} wirklich löschen? Mindestens eine Regel muss bestehen bleiben, solange andere vom Remote-Ziel abhängen.",
  "buckets.replication.noSuchRule": "Die Replikationsregel {rule} ist nicht vorhanden.",
  "buckets.replication.replicated": "Repliziert",
  "buckets.replication.pending": "Ausstehend",
  "buckets.replication.failed": "Fehlgeschlagen",
  "buckets.replication.lastError": "Letzter Fehler",
  "buckets.replication.refreshStatus": "Status aktualisieren",
  "buckets.replication.rootWarning":
    "Verwenden Sie für die Replikation eigene Anmeldedaten, nicht die Root-Anmeldedaten des Remote-Servers.",
  "buckets.replication.targetUrl": "Ziel-URL",
  "buckets.replication.useTls": "TLS verwenden",
  "buckets.replication.accessKey": "Zugriffsschlüssel",
  "buckets.replication.secretKey": "Geheimer Schlüssel",
  "buckets.replication.region": "Region",
  "buckets.replication.mode": "Replikationsmodus",
  "buckets.replication.async": "Asynchron",
  "buckets.replication.sync": "Synchron",
  "buckets.replication.bandwidth": "Bandbreite",
  "buckets.replication.healthCheck": "Intervall der Integritätsprüfung (Sekunden)",
  "buckets.replication.multiTitle": "Replikation für mehrere Buckets einrichten",
  "buckets.replication.remoteStep": "Remote-Konfiguration",
  "buckets.replication.assignStep": "Bucket-Zuordnungen",
  "buckets.replication.localBucket": "Lokaler Bucket",
  "buckets.replication.remoteBucket": "Remote-Bucket",
  "buckets.replication.result": "Ergebnis",
  "buckets.replication.remoteBucketFor": "Remote-Bucket für {bucket}",
  "buckets.replication.chooseBucket": "Bucket auswählen",
  "buckets.replication.error": "Fehler: {reason}",
  "buckets.replication.done": "Replikation eingerichtet",

  // Lifecycle
  "buckets.lifecycle.add": "Lebenszyklusregel hinzufügen",
  "buckets.lifecycle.kind": "Art der Lebenszyklusregel",
  "buckets.lifecycle.expiry": "Ablauf",
  "buckets.lifecycle.transition": "Übergang",
  "buckets.lifecycle.specificDate": "Bestimmtes Datum",
  "buckets.lifecycle.defaultDays": "Standard (7 Tage)",
  "buckets.lifecycle.expiryDate": "Ablaufdatum",
  "buckets.lifecycle.transitionDate": "Übergangsdatum",
  "buckets.lifecycle.expiryDays": "Ablauf nach Tagen",
  "buckets.lifecycle.transitionDays": "Übergang nach Tagen",
  "buckets.lifecycle.atLeastOneDay": "Mindestens 1 Tag",
  "buckets.lifecycle.noncurrentExpiration": "Ablauf nicht aktueller Versionen (Tage)",
  "buckets.lifecycle.noncurrentTransition": "Übergang nicht aktueller Versionen (Tage)",
  "buckets.lifecycle.storageClass": "Speicherklasse",
  "buckets.lifecycle.needsTier":
    "Übergänge erfordern eine Remote-Speicherstufe; fügen Sie eine unter Einstellungen › Speicherstufen hinzu.",
  "buckets.lifecycle.expireDeleteMarker": "Löschmarkierung ablaufen lassen",
  "buckets.lifecycle.empty": "Es gibt noch keine Lebenszyklusregeln.",
  "buckets.lifecycle.id": "ID",
  "buckets.lifecycle.expiration": "Ablauf",
  "buckets.lifecycle.days": { one: "{count} Tag", other: "{count} Tage" },
  "buckets.lifecycle.editTitle": "Lebenszykluskonfiguration bearbeiten",
  "buckets.lifecycle.rule": "Regel {rule}",
  "buckets.lifecycle.notADate": '"{text}" ist kein gültiges Kalenderdatum.',
  "buckets.lifecycle.transitionNeedsTier":
    "Ein Übergang erfordert eine Speicherstufe, in die Objekte verschoben werden.",
  "buckets.lifecycle.noncurrentNeedsTier":
    "Ein Übergang nicht aktueller Versionen erfordert eine Speicherstufe.",
  "buckets.lifecycle.nothingSet":
    "Legen Sie einen Ablauf oder Übergang von mindestens 1 Tag oder ein Datum fest.",
  "buckets.lifecycle.duplicate":
    "Die Regel {rule} hat diese Aktion bereits für dasselbe Präfix und dieselben Tags.",
  "buckets.lifecycle.noSuchRule": "Die Lebenszyklusregel {rule} ist nicht vorhanden.",

  // Access Audit and Access Rules
  "buckets.access.policies": "Richtlinien",
  "buckets.access.users": "Benutzer",
  "buckets.access.accessKey": "Zugriffsschlüssel",
  "buckets.accessRules.add": "Zugriffsregel hinzufügen",
  "buckets.accessRules.editTitle": "Zugriffsregel bearbeiten",
  "buckets.accessRules.edit": "Bearbeiten",
  "buckets.accessRules.prefix": "Präfix",
  "buckets.accessRules.access": "Zugriff",
  "buckets.accessRules.added": "Zugriffsregel hinzugefügt",
  "buckets.accessRules.updated": "Zugriffsregel aktualisiert",
  "buckets.accessRules.deleted": "Zugriffsregel gelöscht",
  "buckets.accessRules.deleteTitle": "Zugriffsregel löschen",
  "buckets.accessRules.deleteConfirm": "Möchten Sie die Zugriffsregel für {prefix} wirklich löschen?",
  "buckets.accessRules.exists":
    "Für das Präfix {prefix} besteht bereits eine Regel ({access}); bearbeiten Sie stattdessen diese Regel.",

  // The console API's refusals for these screens (message, then detail)
  "buckets.error.invalidName": "Ungültiger Bucket-Name",
  "buckets.error.invalidQuota": "Ungültiges Kontingent",
  "buckets.error.exists": "Bucket ist bereits vorhanden",
  "buckets.error.invalidAccess": "Ungültiger Zugriff",
  "buckets.error.lockingOff": "Die Objektsperre ist nicht aktiviert",
  "buckets.error.kmsKeyRequired": "Ein KMS-Schlüssel ist erforderlich",
  "buckets.error.invalidKmsKey": "Ungültiger KMS-Schlüssel",
  "buckets.error.ruleExists": "Zugriffsregel ist bereits vorhanden",
  "buckets.error.unknownTarget": "Unbekanntes Benachrichtigungsziel",
  "buckets.error.overlappingEvent": "Ein überschneidendes Ereignisabonnement ist vorhanden",
  "buckets.error.invalidExpiryDate": "Ungültiges Ablaufdatum",
  "buckets.error.invalidTransitionDate": "Ungültiges Übergangsdatum",
  "buckets.error.storageClassRequired": "Eine Speicherklasse ist erforderlich",
  "buckets.error.ruleDoesNothing": "Die Regel bewirkt nichts",
  "buckets.error.duplicateLifecycle": "Doppelte Lebenszyklusregel",
  "buckets.error.invalidTags": "Ungültige Tags",
  "buckets.error.remoteList": "Die Buckets des Remote-Servers konnten nicht aufgelistet werden",
  "buckets.events.unknownTarget": "{arn} ist kein Benachrichtigungsziel dieses Servers.",
  "buckets.events.overlap":
    "Die Ereignisse {events} für {arn} mit diesem Präfix und Suffix sind bereits abonniert.",
  "buckets.replication.invalidTag": '"{tag}" ist kein gültig codiertes Tag.',

  // Replication to a remote server: the wizard's target and why its buckets could not be listed
  "buckets.error.invalidTarget": "Ungültiges Ziel",
  "buckets.replication.targetInvalid":
    "Das Ziel muss ein Hostname oder eine Adresse mit optionalem Port (host:port) ohne Pfad sein.",
  "buckets.replication.portInvalid": "Der Port muss zwischen 1 und 65535 liegen.",
  "buckets.remote.refusedKeys":
    "{host} hat den Zugriffsschlüssel oder den geheimen Schlüssel abgelehnt ({code}).",
  "buckets.remote.denied": "{host} erlaubt diesen Anmeldedaten nicht, Buckets aufzulisten (AccessDenied).",
  "buckets.remote.answered": "{host} hat mit {code} geantwortet (HTTP {status}).",
  "buckets.remote.notS3": "{host} hat mit HTTP {status} geantwortet; das ist keine S3-Antwort.",
  "buckets.remote.timeout": "{host} hat nicht innerhalb von {seconds} Sekunden geantwortet.",
  "buckets.remote.tooLarge": "{host} hat eine Antwort gesendet, die größer als {limit} Byte ist.",
  "buckets.remote.unreachable": "{host} ist nicht erreichbar oder hat nicht wie ein S3-Server geantwortet.",

  // A feature a plain S3 server does not implement
  "buckets.unsupported.message": "{feature}: von diesem Speicherserver nicht unterstützt",
  "buckets.unsupported.policies": "Bucket-Richtlinien",
  "buckets.unsupported.lifecycle": "Lebenszyklusregeln",
  "buckets.unsupported.versioning": "Versionierung",
};
