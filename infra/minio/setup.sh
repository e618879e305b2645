#!/bin/sh
# One-shot MinIO set-up for docker compose (service `minio-setup`, image minio/mc).
# Idempotent: safe to run on every `docker compose up`.
#   - the bucket S3_BUCKET, private (profile images are served through the api's /objects route);
#   - an access key for the apps (S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY) allowed only that bucket;
#   - lifecycle rules that expire unused uploads after a day;
#   - CORS for browsers on PUBLIC_ORIGIN, which PUT uploads with pre-signed URLs (MinIO applies the
#     server-wide MINIO_API_CORS_ALLOW_ORIGIN; a per-bucket rule is set too where the server has it).
set -eu

: "${MINIO_ROOT_USER:?}" "${MINIO_ROOT_PASSWORD:?}" "${S3_BUCKET:?}"
: "${S3_ACCESS_KEY_ID:?}" "${S3_SECRET_ACCESS_KEY:?}" "${PUBLIC_ORIGIN:=*}"

mc alias set local http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null

mc mb --ignore-existing "local/$S3_BUCKET"
mc anonymous set none "local/$S3_BUCKET"

# Documents go to mc on standard input (/dev/stdin), so the script needs only the shell and mc.
app_policy() {
  mc admin policy create local fanpilot-app /dev/stdin <<JSON
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["s3:GetBucketLocation", "s3:ListBucket", "s3:ListBucketMultipartUploads"],
      "Resource": ["arn:aws:s3:::$S3_BUCKET"]
    },
    {
      "Effect": "Allow",
      "Action": [
        "s3:GetObject",
        "s3:PutObject",
        "s3:DeleteObject",
        "s3:AbortMultipartUpload",
        "s3:ListMultipartUploadParts"
      ],
      "Resource": ["arn:aws:s3:::$S3_BUCKET/*"]
    }
  ]
}
JSON
}

if [ "$S3_ACCESS_KEY_ID" = "$MINIO_ROOT_USER" ]; then
  echo "S3_ACCESS_KEY_ID is the MinIO root user: the apps use the root credentials"
else
  app_policy
  mc admin user add local "$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY"
  # Attaching a policy that is already attached is reported as an error; that is fine here.
  mc admin policy attach local fanpilot-app --user "$S3_ACCESS_KEY_ID" 2>/dev/null || true
fi

cors_rules() {
  mc cors set "local/$S3_BUCKET" /dev/stdin <<XML
<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>$PUBLIC_ORIGIN</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>
XML
}
cors_rules 2>/dev/null \
  || echo "per-bucket CORS not supported by this server; MINIO_API_CORS_ALLOW_ORIGIN applies"

# Unused uploads expire after a day: pending profile images (uploads/pending/, moved to
# uploads/{creator}/ when a creator takes one) and knowledge uploads (knowledge-uploads/, copied
# under knowledge/ when registered). `mc ilm import` replaces the bucket's rules, so running this
# again adds nothing. (MinIO itself drops multipart uploads never completed after 24 h.)
lifecycle_rules() {
  mc ilm import "local/$S3_BUCKET" <<JSON
{
  "Rules": [
    {
      "ID": "expire-pending-profile-images",
      "Status": "Enabled",
      "Filter": { "Prefix": "uploads/pending/" },
      "Expiration": { "Days": 1 }
    },
    {
      "ID": "expire-knowledge-uploads",
      "Status": "Enabled",
      "Filter": { "Prefix": "knowledge-uploads/" },
      "Expiration": { "Days": 1 }
    }
  ]
}
JSON
}
lifecycle_rules
mc ilm rule ls "local/$S3_BUCKET"

echo "bucket $S3_BUCKET is ready"
