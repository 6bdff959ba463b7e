from django.urls import path

from server.fairness import views

urlpatterns = [
    path("fairness/commitments", views.CommitmentsView.as_view(), name="fairness-commitments"),
    path("fairness/commitments/<str:game>/<str:date>", views.CommitmentView.as_view(),
         name="fairness-commitment"),
    path("fairness/log", views.LogView.as_view(), name="fairness-log"),
    path("fairness/key", views.KeyView.as_view(), name="fairness-key"),
]
